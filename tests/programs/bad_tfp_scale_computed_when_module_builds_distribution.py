# expect: GG301@25
# tensorflow: none
# fixed: nofix
# shape: a tf.Module whose __call__ builds a joint distribution with `scale_diag=self._stddev * tf.ones(n)`, called before the tape: the product is computed then, so the TransformedVariable gets no gradient, while the variable read inside the lambda does (tensorflow/probability tensorflow_probability/examples/jupyter_notebooks/Linear_Mixed_Effects_Models.ipynb at c847a41, cell 20: its M-step's `tape.gradient(loss, trainable_variables)` returns None for the three stddevs)
import tensorflow as tf
import tensorflow_probability as tfp

tfd, tfb = tfp.distributions, tfp.bijectors


class Model(tf.Module):
    def __init__(self):
        self._intercept = tf.Variable(0.0, name="intercept")
        self._stddev = tfp.util.TransformedVariable(1.0, bijector=tfb.Exp(), name="stddev")

    def __call__(self, n):
        return tfd.JointDistributionSequential([
            tfd.MultivariateNormalDiag(loc=tf.zeros(n), scale_diag=self._stddev * tf.ones(n)),
            lambda effect: tfd.Independent(tfd.Normal(loc=effect + self._intercept, scale=1.0),
                                           reinterpreted_batch_ndims=1),
        ])


model = Model()
dist = model(3)
with tf.GradientTape() as tape:
    loss = -dist.log_prob([tf.zeros(3), tf.ones(3)])
grads = tape.gradient(loss, model.trainable_variables)
