# expect: GG402@22
# tensorflow: none
# fixed: nofix
# shape: ordinal-rating model whose loss compares the rating bucket of each predicted score (tf.raw_ops.Bucketize, called with keyword arguments) with the true rating; Bucketize returns integer bucket indices and has no gradient
# family: 4
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

features = np.random.rand(8, 5).astype("float32")
ratings = np.random.randint(0, 5, size=(8, 1)).astype("float32")

with tf.GradientTape() as tape:
    scores = model(features, training=True)
    buckets = tf.raw_ops.Bucketize(input=scores, boundaries=[0.2, 0.4, 0.6, 0.8])
    loss = tf.reduce_mean(tf.abs(tf.cast(buckets, tf.float32) - ratings))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
