# expect: GG401@20 GG309@23
# tensorflow: none
# fixed: ok
# shape: regression rounding its predictions with tf.round, apply_gradients guarded by "grads is not None" (a list of None passes the check)
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(8, 4).astype(np.float32)
scores = np.random.randint(0, 10, size=(8, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    predicted_scores = tf.round(model(x_batch, training=True))
    loss = tf.reduce_mean(tf.square(scores - predicted_scores))
grads = tape.gradient(loss, model.trainable_variables)
if grads is not None:
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
