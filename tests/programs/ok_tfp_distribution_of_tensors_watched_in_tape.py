# expect: none
# tensorflow: ok
# shape: plain tensors given to TF Probability objects before the tape (an alternate constructor `Beta.experimental_from_mean_variance(mean, variance)`, a `tf.linalg.LinearOperatorDiag`, a helper returning a `Poisson`), then watched inside it: the objects compute from them when evaluated, so every gradient is present (tensorflow/probability's beta_test, gamma_test, poisson_test and linear_operator_psd_kernel_test at c847a41 drew false GG302 and GG301 on these shapes)
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions


def make_poisson(rate):
    return tfd.Poisson(rate=rate)


mean = tf.constant(0.4)
variance = tf.constant(0.02)
diag = tf.constant([1.0, 2.0])
rate = tf.constant(3.0)
beta = tfd.Beta.experimental_from_mean_variance(mean, variance)
operator = tf.linalg.LinearOperatorDiag(diag)
poisson = make_poisson(rate)
with tf.GradientTape() as tape:
    tape.watch((mean, variance, diag, rate))
    loss = beta.log_prob(0.3) + tf.reduce_sum(operator.matvec(tf.ones(2))) + poisson.log_prob(2.0)
grads = tape.gradient(loss, (mean, variance, diag, rate))
