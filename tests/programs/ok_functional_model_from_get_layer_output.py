# expect: none
# tensorflow: ok
# shape: a feature extractor built before the tape from a trained model's layers (`model.get_layer(name).output`, `model.inputs`) is graph building, not a forward pass outside the tape (after tensorflow/docs tutorials that build `tf.keras.Model(inputs=model.inputs, outputs=model.get_layer(...).output)` for saliency and feature maps)
import numpy as np
import tensorflow as tf
from tensorflow import keras

inputs = keras.Input((4,))
hidden = keras.layers.Dense(8, activation="relu", name="hidden")(inputs)
outputs = keras.layers.Dense(2, name="logits")(hidden)
model = keras.Model(inputs, outputs)

features = keras.Model(inputs=model.inputs, outputs=model.get_layer("hidden").output)
head = keras.layers.Dense(1)
x = np.random.rand(8, 4).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    prediction = head(features(x))
    loss = tf.reduce_mean(tf.square(y - prediction))
grads = tape.gradient(loss, features.trainable_variables + head.trainable_variables)
