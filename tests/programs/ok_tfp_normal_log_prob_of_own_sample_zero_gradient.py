# expect: none
# tensorflow: ok
# shape: a Normal distribution whose `loc` is a variable `mu`, scored on its own sample, `q.log_prob(q.sample())`; with tensorflow_probability under TF 2.21 the gradient with respect to `mu` exists and is exactly zero (the sample is reparameterized, `mu + sigma * eps`, so mu cancels out of the log density), the surprise of the thread ("Gradients of the log pdf of normal distributions are zero"); not a missing gradient, so a linter must stay silent (the answer: `tf.stop_gradient` on the sample for a score-function gradient)
# source: https://github.com/tensorflow/tensorflow/issues/7236
# family: 6
# heldout: 2
import tensorflow as tf
import tensorflow_probability as tfp

dist = tfp.distributions

mu = tf.Variable(0.0, name="mu")
with tf.GradientTape() as tape:
    q = dist.Normal(mu, 1.0)
    log_q = q.log_prob(q.sample())
grad = tape.gradient(log_q, mu)
