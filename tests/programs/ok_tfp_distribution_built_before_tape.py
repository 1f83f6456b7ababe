# expect: none
# tensorflow: ok
# shape: a TF Probability distribution built before the tape from a variable and a TransformedVariable (`tfd = tfp.distributions`; `tfd.Normal(loc=loc, scale=scale)`), evaluated inside it: it reads its variables at each use, every gradient present (issue 22, point 3)
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions
loc = tf.Variable(0.0)
scale = tfp.util.TransformedVariable(1.0, tfp.bijectors.Softplus())
dist = tfd.Normal(loc=loc, scale=scale)
with tf.GradientTape() as tape:
    loss = -tf.reduce_sum(dist.log_prob([0.5, 1.0]))
grads = tape.gradient(loss, [loc] + list(dist.trainable_variables))
