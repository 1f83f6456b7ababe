"""A Keras layer built from a network it is given (a normalizing flow's shape)."""
import tensorflow as tf


class ShiftFlow(tf.keras.layers.Layer):
    def __init__(self, network, scale):
        super().__init__()
        self.network = network
        self.scale = scale

    def call(self, inputs):
        return inputs + self.scale * self.network(inputs)
