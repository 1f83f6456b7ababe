# expect: none
# tensorflow: ok
# shape: tf.numpy_function / np.roll augmentation inside a tf.data map on the INPUTS, then model.fit — the numpy step is before the model, not on the loss path
import numpy as np
import tensorflow as tf
from tensorflow import keras


def jitter(x):
    return (np.roll(x, 1) + np.random.normal(0, 0.01, x.shape)).astype(np.float32)


def augment(x, y):
    x = tf.numpy_function(jitter, [x], tf.float32)
    x.set_shape([6])
    return x, y


features = np.random.rand(8, 6).astype(np.float32)
labels = np.random.randint(0, 2, size=(8,)).astype(np.int64)
ds = tf.data.Dataset.from_tensor_slices((features, labels)).map(augment).batch(8)

model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2)])
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
model.fit(ds, epochs=1, verbose=0)
print(model.evaluate(features, labels, verbose=0))
