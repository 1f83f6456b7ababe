# expect: GG303@19
# tensorflow: none
# fixed: nofix
# shape: a MaskedDense layer freezes some connections by multiplying its kernel by a constant 0/1 mask once, in build(), and call() uses that product: the product is a tensor computed before any tape, so the kernel gets None (the poster notes the same layer trained in TensorFlow 1, where build ran inside the graph)
# source: https://github.com/tensorflow/tensorflow/issues/47053
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class MaskedDense(keras.layers.Layer):
    def __init__(self, units, mask):
        super().__init__()
        self.units = units
        self.mask = tf.constant(mask, dtype=tf.float32)

    def build(self, input_shape):
        kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")
        self.kernel = kernel * self.mask

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel) + self.bias


mask = (np.random.rand(4, 3) > 0.5).astype(np.float32)
model = keras.Sequential([keras.Input(shape=(4,)), MaskedDense(3, mask)])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(8, 4).astype(np.float32)
y = np.random.rand(8, 3).astype(np.float32)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
