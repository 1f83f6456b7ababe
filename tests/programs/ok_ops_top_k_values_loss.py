# expect: none
# tensorflow: ok
# shape: the same scorer; the loss uses the k largest scores themselves (tf.math.top_k(...).values has a gradient) and the indices only gather the targets
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
targets = np.random.rand(4, 8).astype("float32")

with tf.GradientTape() as tape:
    scores = scorer(x, training=True)
    best = tf.math.top_k(scores, k=2)
    chosen_targets = tf.gather(targets, best.indices, batch_dims=1)
    loss = tf.reduce_mean(tf.square(best.values - chosen_targets))
grads = tape.gradient(loss, scorer.trainable_variables)
optimizer.apply_gradients(zip(grads, scorer.trainable_variables))
