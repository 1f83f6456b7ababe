# expect: GG301@9
# tensorflow: none
# fixed: nofix
# shape: a TF Probability distribution built before the tape from a tensor computed from the variable (`loc=loc * 2.0`): the product is computed once, outside the tape, and the loss has no gradient for `loc` (issue 22, point 3; generator break `tfp_precomputed`)
import tensorflow as tf
import tensorflow_probability as tfp

loc = tf.Variable(0.0)
dist = tfp.distributions.Normal(loc=loc * 2.0, scale=1.0)
with tf.GradientTape() as tape:
    loss = -dist.log_prob(0.5)
grads = tape.gradient(loss, [loc])
