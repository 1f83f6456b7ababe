# expect: GG403@24
# tensorflow: none
# fixed: nofix
# shape: the near miss of ok_weightless_layer_class_before_embedding.py: the layer before the `Embedding` makes a weight (`add_weight`), which the integer lookup leaves without a gradient
# family: 3
import numpy as np
import tensorflow as tf
from tensorflow import keras


class ScaledInput(keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(shape=(1,), initializer="ones")

    def call(self, inputs):
        return inputs * self.scale


features = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
labels = np.array([1.0, 0.0], dtype=np.float32)
scaled = ScaledInput()
model = keras.Sequential([
    scaled,
    keras.layers.Embedding(input_dim=10, output_dim=4),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(loss="binary_crossentropy", optimizer="sgd")
model.fit(features, labels, epochs=1, verbose=0)
