# expect: GG303@18
# tensorflow: none
# fixed: nofix
# shape: custom Layer creating a scale weight with add_weight that call() never uses
import numpy as np
import tensorflow as tf
from tensorflow import keras


class ScaledDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")
        self.scale = self.add_weight(shape=(self.units,), initializer="ones", name="scale")

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel) + self.bias


model = keras.Sequential([keras.Input(shape=(3,)), ScaledDense(4), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-3)

x = np.random.rand(8, 3).astype(np.float32)
y = np.random.rand(8, 1).astype(np.float32)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
