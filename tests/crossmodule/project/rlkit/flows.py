"""A Keras layer built from a network it is given (a normalizing flow's shape)."""
import tensorflow as tf


class ShiftFlow(tf.keras.layers.Layer):
    def __init__(self, network, scale):
        super().__init__()
        self.network = network
        self.scale = scale

    def call(self, inputs):
        return inputs + self.scale * self.network(inputs)


class ProjectedDense(tf.keras.layers.Layer):
    """A layer that builds its kernel with the regularizer it is given, if any."""

    def __init__(self, units, kernel_regularizer=None):
        super().__init__()
        self.units = units
        self._kernel_regularizer = kernel_regularizer

    def build(self, input_shape):
        self.dense = tf.keras.layers.Dense(self.units, kernel_regularizer=self._kernel_regularizer)

    def call(self, inputs):
        return self.dense(inputs)
