# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/probability/issues/1167
# shape: the log-scale variables are mapped through tfp.util.DeferredTensor(scale_var, tf.exp), which reads scale_var itself inside the tape, so every parameter gets a gradient
# heldout: 7
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions

loc_1 = tf.Variable(0.5, name="loc_1")
loc_2 = tf.Variable(1.1, name="loc_2")
scale_1 = tf.Variable(0.2, name="logscale_1")
scale_2 = tf.Variable(0.3, name="logscale_2")
params = [loc_1, loc_2, scale_1, scale_2]
optimizer = tf.keras.optimizers.SGD(0.01)
data = tf.constant([0.4, 1.3])

with tf.GradientTape() as tape:
    dist_1 = tfd.Normal(loc=loc_1, scale=tfp.util.DeferredTensor(scale_1, tf.exp, name="scale_1"))
    dist_2 = tfd.Normal(loc=loc_2, scale=tfp.util.DeferredTensor(scale_2, tf.exp, name="scale_2"))
    nll = -(dist_1.log_prob(data[0]) + dist_2.log_prob(data[1]))

grads = tape.gradient(nll, params)
optimizer.apply_gradients(zip(grads, params))
