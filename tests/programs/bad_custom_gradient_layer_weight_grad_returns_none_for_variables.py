# expect: GG314@21
# tensorflow: none
# fixed: nofix
# shape: a margin layer computes x * W inside a @tf.custom_gradient function that reads its own weight W, and the grad function accepts `variables=None` but returns None for every one of them (only the input gradient is written out), so the tape hands W a None gradient while the Dense layer below still trains
# source: https://github.com/tensorflow/tensorflow/issues/21756
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class MarginInnerProduct(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(1,), initializer=keras.initializers.Constant(10.0), name="W")

    def call(self, inputs):
        w = self.w

        @tf.custom_gradient
        def loss_func(x):
            def grad(dy, variables=None):
                return dy * w, [None for v in variables]

            return tf.multiply(x, w), grad

        return loss_func(inputs)


model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2), MarginInnerProduct()])
optimizer = keras.optimizers.SGD(0.01)
features = np.random.rand(4, 3).astype(np.float32)
targets = np.random.rand(4, 2).astype(np.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(features) - targets))
grads = tape.gradient(loss, model.trainable_variables)
