# expect: none
# tensorflow: ok
# source: http://quabr.com/59726491/cannot-fit-keras-model-which-uses-tf-gather-gradients-do-not-exist
# shape: custom layer that creates its weights in build() and assembles the tf.gather/tf.concat mixing matrix inside call()
# heldout: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras


class GatherLayer(keras.layers.Layer):
    def __init__(self, activation="linear", **kwargs):
        super().__init__(**kwargs)
        self.activation = keras.activations.get(activation)

    def build(self, _):
        self.w = self.add_weight(shape=(2,), name="weights", initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(1,), name="offset", initializer="random_normal", trainable=True)

    def call(self, inputs):
        m = tf.concat(
            [tf.reshape(tf.gather(self.w, ix), (-1, 1)) for ix in [[0, 1], [1, 0]]], axis=-1)
        lin = tf.matmul(inputs, m) + self.b
        return self.activation(lin)


model = keras.Sequential([keras.Input(shape=(2,)), GatherLayer()])
optimizer = keras.optimizers.Adam(1e-2)

x = np.random.rand(16, 2).astype(np.float32)
y = np.random.rand(16, 2).astype(np.float32)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
grads = tape.gradient(loss, model.trainable_variables)
