# expect: GG101@46
# tensorflow: raises InvalidArgumentError
# fixed: nofix
# shape: learned DCT quantiser layer calling tf.py_function on a helper that takes inp.numpy() and applies a numpy DCT, then floors with a straight-through estimator; the py_function records no path from its input (the numpy body), and backpropagating into the Dense layer before it fails in BiasAddGrad (TF 1.14 failed in backprop too)
# source: https://github.com/tensorflow/tensorflow/issues/40717
# family: 3
import numpy as np
import tensorflow as tf
import keras

N = 10
k = np.arange(N)
DCT = np.sqrt(2.0 / N) * np.cos(np.pi * (2 * k[None, :] + 1) * k[:, None] / (2 * N))
DCT[0] /= np.sqrt(2.0)


def fdct_top(inp):
    return tf.convert_to_tensor(np.array([DCT @ in_ for in_ in list(inp.numpy())], dtype=np.float32))


class MyDenseLayer(keras.layers.Layer):
    def __init__(self, y_mat):
        super().__init__()
        self.w_mat = y_mat

    def build(self, input_shape):
        self.w = self.add_weight(shape=self.w_mat.shape, initializer=keras.initializers.Constant(self.w_mat), name="w")

    def call(self, input):
        dct_i = tf.py_function(fdct_top, (input,), "float32")
        dct_i.set_shape(tf.TensorShape((None, N)))
        dcts_q = tf.multiply(dct_i, 1 / self.w)
        z_floored_NOT_differentiable = tf.floor(dcts_q)
        z_floored_differentiable = dcts_q - (tf.stop_gradient(dcts_q) - z_floored_NOT_differentiable)
        return tf.multiply(z_floored_differentiable, self.w)


encoder = keras.layers.Dense(N)
quantiser = MyDenseLayer(np.full((N,), 0.5, dtype=np.float32))
optimizer = keras.optimizers.Adam(1e-3)

x = np.random.rand(4, 6).astype(np.float32)
y = np.random.rand(4, N).astype(np.float32)

with tf.GradientTape() as tape:
    out = quantiser(encoder(x))
    loss = tf.reduce_mean(tf.square(y - out))
variables = encoder.trainable_variables + quantiser.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
