# expect: GG402@22
# tensorflow: none
# fixed: nofix
# shape: attention-style selection: the loss is computed from the positions of the k largest scores (tf.math.top_k(...).indices) instead of their values
# family: 4
import numpy as np
import tensorflow as tf
import keras

scorer = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(12, activation="relu"),
    keras.layers.Dense(8),
])
optimizer = keras.optimizers.Adam(1e-3)

x = np.random.rand(4, 6).astype("float32")
target_positions = np.array([[0, 1], [2, 3], [4, 5], [6, 7]], dtype="float32")

with tf.GradientTape() as tape:
    scores = scorer(x, training=True)
    chosen = tf.math.top_k(scores, k=2).indices
    loss = tf.reduce_mean(tf.square(tf.cast(chosen, tf.float32) - target_positions))
grads = tape.gradient(loss, scorer.trainable_variables)
optimizer.apply_gradients(zip(grads, scorer.trainable_variables))
