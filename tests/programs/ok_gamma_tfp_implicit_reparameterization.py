# expect: none
# tensorflow: ok
# shape: the thread's working version: concentration and rate are tf.Variables and the Gamma samples are drawn inside the tape; tfp's Gamma is implicitly reparameterized, so both get a gradient
# source: https://github.com/tensorflow/probability/issues/51
# family: 4
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions

concentration = tf.Variable(3.0)
rate = tf.Variable(2.0)

with tf.GradientTape() as tape:
    dist = tfd.Gamma(concentration, rate)
    samples = dist.sample(5, seed=1)
    loss = tf.reduce_mean(tf.square(samples))
grads = tape.gradient(loss, [concentration, rate])
