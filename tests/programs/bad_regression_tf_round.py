# expect: GG401@20
# tensorflow: none
# fixed: ok
# shape: age regression with a manual tape, predictions rounded with tf.round before the loss
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

features = np.random.rand(8, 6).astype(np.float32)
ages = np.random.randint(18, 80, size=(8, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    predicted_ages = tf.round(model(features, training=True))
    loss = tf.reduce_mean(tf.abs(ages - predicted_ages))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
