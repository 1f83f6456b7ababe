# expect: GG301@20 GG301@21
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/probability/issues/1165
# shape: TFP JointDistributionSequential built before the tape with scale=tf.exp(logscale_var); only log_prob runs inside, so the exp is never recorded and d/d logscale is None
# heldout: 7
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions

loc_1 = tf.Variable([1.5])
logscale_1 = tf.Variable([0.3])
loc_2 = tf.Variable([-0.5])
logscale_2 = tf.Variable([0.1])
params = [loc_1, loc_2, logscale_1, logscale_2]
optimizer = tf.keras.optimizers.Adam(0.01)

joint = tfd.JointDistributionSequential([
    tfd.Normal(loc=loc_1, scale=tf.exp(logscale_1)),
    tfd.Normal(loc=loc_2, scale=tf.exp(logscale_2)),
    lambda b1, b0: tfd.Independent(tfd.Normal(loc=b0 + 3.0 * b1, scale=1.0),
                                   reinterpreted_batch_ndims=1),
])

observed = (tf.constant([0.7]), tf.constant([0.2]), tf.constant([2.0]))

with tf.GradientTape() as tape:
    nll = -tf.reduce_sum(joint.log_prob(*observed))
grads = tape.gradient(nll, params)
optimizer.apply_gradients(zip(grads, params))
