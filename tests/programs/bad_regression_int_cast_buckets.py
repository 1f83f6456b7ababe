# expect: GG403@20
# tensorflow: none
# fixed: nofix
# shape: regression with a manual tape, predictions cast to int32 buckets before comparing with the labels
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
buckets = np.random.randint(0, 10, size=(8, 1)).astype(np.int32)

with tf.GradientTape() as tape:
    predicted_bucket = tf.cast(model(x_batch, training=True) * 10.0, tf.int32)
    loss = tf.reduce_mean(tf.cast(tf.abs(buckets - predicted_bucket), tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
