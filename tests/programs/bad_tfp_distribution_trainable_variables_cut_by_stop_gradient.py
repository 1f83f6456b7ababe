# expect: GG201@12
# tensorflow: none
# fixed: ok
# shape: the sources are a TF Probability distribution's own `trainable_variables` (`list(dist.trainable_variables)`), the distribution built from a variable, and its only path to the loss is wrapped in `tf.stop_gradient`: the distribution tracks the variables it is built from, so its `trainable_variables` are `loc` and the cut is reported (generator family, shrunk from bench/oracle.py seed 20261202 programs 2020, 5978 and 9768)
import tensorflow as tf
import tensorflow_probability as tfp

loc = tf.Variable(tf.zeros(3))
dist = tfp.distributions.Normal(loc=loc, scale=1.0)
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    h = tf.stop_gradient(tf.reduce_sum(dist.log_prob(x), axis=1, keepdims=True))
    loss = tf.reduce_mean(h)
grads = tape.gradient(loss, list(dist.trainable_variables))
