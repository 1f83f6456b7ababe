# expect: GG306@20 GG306@20
# tensorflow: none
# fixed: ok
# shape: gradient of a loss on tfp Gamma samples with respect to the distribution's concentration and rate, given as tf.constant; the sample is drawn inside the tape (the maintainers' first suggestion) and the gradients are still None because the tape watches neither constant
# source: https://github.com/tensorflow/probability/issues/51
# family: 4
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions

concentration = tf.constant(3.0)
rate = tf.constant(2.0)

with tf.GradientTape() as tape:
    dist = tfd.Gamma(concentration, rate)
    samples = dist.sample(5, seed=1)
    loss = tf.reduce_mean(tf.square(samples))
# unbiased stochastic gradients of the loss
grads = tape.gradient(loss, [concentration, rate])
