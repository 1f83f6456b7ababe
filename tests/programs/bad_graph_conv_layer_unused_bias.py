# expect: GG303@21
# tensorflow: none
# fixed: nofix
# source: https://github.com/keras-team/keras/issues/12521
# shape: a custom graph-convolution layer (AV = A.Vin, Vout = AV.W) creates a bias weight in build but never uses it in call, so that weight's gradient is always None
# heldout: 8
import numpy as np
import tensorflow as tf
from tensorflow import keras


class GraphConv(keras.layers.Layer):
    def __init__(self, adjacency, units, **kwargs):
        super().__init__(**kwargs)
        self.A = tf.constant(adjacency, dtype="float32")  # (n, n)
        self.units = units

    def build(self, input_shape):
        c = input_shape[-1]
        self.W = self.add_weight(shape=(c, self.units), initializer="glorot_uniform", name="W")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, Vin):
        AV = keras.ops.matmul(self.A, Vin)      # (batch, n, c)
        Vout = keras.ops.matmul(AV, self.W)     # (batch, n, units)
        return Vout


n, c = 5, 3
adjacency = (np.random.rand(n, n) > 0.5).astype("float32")
inputs = keras.Input((n, c))
h = GraphConv(adjacency, 4)(inputs)
outputs = keras.layers.Dense(2, activation="softmax")(keras.layers.Flatten()(h))
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

x = np.random.rand(8, n, c).astype("float32")
y = np.random.randint(0, 2, size=(8,))
print(model.train_on_batch(x, y))
