# expect: none
# tensorflow: ok
# shape: TF Probability objects made from others before the tape (a slice `dist[:2]`, `dist.copy()`, a `Mixture` of a `Categorical` and a list of components, a `DeferredModule` whose build function closes over a variable) still read the variables when evaluated in the tape: every gradient present (issue 22, point 3; tensorflow/probability's bernoulli_test, mixture_test and deferred_module_test at c847a41 drew false GG301 on these shapes)
import tensorflow as tf
import tensorflow_probability as tfp

tfd = tfp.distributions
loc = tf.Variable([0.0, 1.0, 2.0])
logits = tf.Variable([0.5, -0.5])
log_scale = tf.Variable(0.1)
dist = tfd.Normal(loc=loc, scale=1.0)
sliced = dist[:2]
copied = dist.copy()
mixture = tfd.Mixture(cat=tfd.Categorical(logits=logits),
                      components=[tfd.Normal(loc=loc[0], scale=1.0), tfd.Normal(loc=loc[1], scale=2.0)])
deferred = tfp.experimental.util.DeferredModule(lambda s: tfd.Normal(0.0, tf.exp(s)), log_scale)
with tf.GradientTape() as tape:
    loss = -(tf.reduce_sum(sliced.log_prob(0.5)) + tf.reduce_sum(copied.log_prob(0.5))
             + mixture.log_prob(0.3) + deferred.log_prob(0.2))
grads = tape.gradient(loss, [loc, logits, log_scale])
