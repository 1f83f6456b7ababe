# expect: GG107@30
# tensorflow: none
# fixed: nofix
# shape: Dense-like custom Layer whose call passes K.dot(inputs, W) through a numpy helper with tf.numpy_function (tf.py_func in TF1) before the activation, trained with fit
# source: https://github.com/keras-team/keras/issues/6163
# family: 3
import numpy as np
import tensorflow as tf
import keras


class FuncDense(keras.layers.Layer):
    def __init__(self, units, n=2, activation="tanh", **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.n = n
        self.activation = keras.activations.get(activation)

    def build(self, input_shape):
        self.W = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="W")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def func(self, output):
        # a transformation written with numpy, not TensorFlow
        return np.sinh(output).astype(np.float32)

    def call(self, inputs):
        output = tf.matmul(inputs, self.W)
        output = output + self.bias
        output = self.activation(tf.numpy_function(self.func, [output], tf.float32))
        return output

    def compute_output_shape(self, input_shape):
        return input_shape[:-1] + (self.units,)


model = keras.Sequential([keras.Input(shape=(5,)), FuncDense(4), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", run_eagerly=True)

x_train = np.random.rand(8, 5).astype(np.float32)
y_train = np.random.rand(8, 1).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
