# expect: none
# tensorflow: ok
# shape: the same rating model; tf.raw_ops.Bucketize turns the true ratings into buckets that weight the squared error of the predicted scores, so the gradient flows through the scores
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
targets = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    scores = model(features, training=True)
    buckets = tf.raw_ops.Bucketize(input=targets, boundaries=[0.2, 0.4, 0.6, 0.8])
    weights = 1.0 + tf.cast(buckets, tf.float32)
    loss = tf.reduce_mean(weights * tf.square(scores - targets))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
