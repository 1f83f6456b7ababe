# expect: none
# tensorflow: ok
# shape: binarized network: tf.round/tf.sign inside @tf.custom_gradient and tf.grad_pass_through(tf.round), both pass the gradient through (after a BinaryNet Q&A)
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def binarize(x):
    def grad(dy):
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)
    return tf.sign(x), grad


class BinaryDense(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", trainable=True)

    def call(self, x):
        return tf.matmul(x, binarize(tf.convert_to_tensor(self.kernel)))


round_ste = tf.grad_pass_through(tf.round)

model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="sigmoid"), BinaryDense(2)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 5).astype(np.float32)
y = np.random.rand(8, 2).astype(np.float32)
with tf.GradientTape() as tape:
    h = model.layers[0](x)
    h = round_ste(h * 4.0) / 4.0
    out = model.layers[1](h)
    loss = tf.reduce_mean(tf.square(out - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(loss.numpy())
