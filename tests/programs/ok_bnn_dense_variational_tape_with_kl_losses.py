# expect: none
# tensorflow: ok
# shape: the same two-layer DenseVariational regression net trained with a GradientTape whose loss adds the KL penalties the layers collect in `model.losses` to the negative log-likelihood (what fit does for `model2` in the thread), so the priors' weights get gradients too
# source: https://github.com/tensorflow/probability/issues/1560
# family: 6
# heldout: 1
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
    loss = tf.reduce_mean(negloglik(y, model1(x))) + tf.reduce_sum(model1.losses)
grads = tape.gradient(loss, model1.trainable_variables)
optimizer.apply_gradients(zip(grads, model1.trainable_variables))
