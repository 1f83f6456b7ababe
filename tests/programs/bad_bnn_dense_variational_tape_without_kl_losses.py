# expect: GG302@54
# tensorflow: none
# fixed: nofix
# shape: a Bayesian regression net of two tfp.layers.DenseVariational layers (`dense_v1`, `dense_v2`, trainable mean-field posterior and trainable prior, both VariableLayer "constant" weights) trained with a GradientTape on the negative log-likelihood alone; the prior's weights reach only the KL penalty each layer adds to `model.losses`, which the loop leaves out, so their gradients are None ("Gradients do not exist for variables ['model__dense_variational/dense_v1/constant:0', ...]"; the same model trains with fit, which adds model.losses)
# source: https://github.com/tensorflow/probability/issues/1560
# family: 6
# heldout: 1
# gap: gradguard is silent: it has no summary of tfp.layers.DenseVariational, whose prior weights reach only the KL penalty the layer adds with add_loss (model.losses), so it cannot see that a tape loss without `model1.losses` asks for weights it never uses; it would need per-layer knowledge of which weights feed only add_loss terms (DenseVariational's prior, regularizers) and a check that the taped loss includes `model.losses` (a custom layer in the same file whose prior weight feeds only `self.add_loss` is missed the same way)
import numpy as np
import tensorflow as tf
import tf_keras
from tensorflow_probability import distributions as tfd
from tensorflow_probability import layers as tpl

negloglik = lambda y, rv_y: -rv_y.log_prob(y)
n = 32
x = np.random.uniform(-20, 60, size=(n, 1)).astype(np.float32)
y = (0.125 * x * (1.0 + np.sin(x)) + 5.0 + np.random.randn(n, 1)).astype(np.float32)


def posterior_mean_field(kernel_size, bias_size=0, dtype=None):
    size = kernel_size + bias_size
    c = np.log(np.expm1(1.0))
    return tf_keras.Sequential([
        tpl.VariableLayer(2 * size, dtype=dtype),
        tpl.DistributionLambda(lambda t: tfd.Independent(
            tfd.Normal(loc=t[..., :size], scale=1e-5 + tf.nn.softplus(c + t[..., size:])), reinterpreted_batch_ndims=1)),
    ])


def prior_trainable(kernel_size, bias_size=0, dtype=None):
    size = kernel_size + bias_size
    return tf_keras.Sequential([
        tpl.VariableLayer(size, dtype=dtype),
        tpl.DistributionLambda(lambda t: tfd.Independent(tfd.Normal(loc=t, scale=1.0), reinterpreted_batch_ndims=1)),
    ])


class Model_DenseVariational(tf_keras.Model):
    def __init__(self):
        super().__init__()
        self.dense_v1 = tpl.DenseVariational(8, posterior_mean_field, prior_trainable, kl_weight=1 / n, activation="relu", name="dense_v1")
        self.dense_v2 = tpl.DenseVariational(2, posterior_mean_field, prior_trainable, kl_weight=1 / n, name="dense_v2")
        self.dist = tpl.DistributionLambda(lambda t: tfd.Normal(loc=t[..., :1], scale=1e-3 + tf.math.softplus(0.05 * t[..., 1:])))

    def call(self, inputs):
        return self.dist(self.dense_v2(self.dense_v1(inputs)))


model1 = Model_DenseVariational()
optimizer = tf_keras.optimizers.Adam(learning_rate=0.01)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(negloglik(y, model1(x)))
grads = tape.gradient(loss, model1.trainable_variables)
optimizer.apply_gradients(zip(grads, model1.trainable_variables))
