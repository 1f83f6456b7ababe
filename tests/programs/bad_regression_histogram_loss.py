# expect: GG405@21
# tensorflow: none
# fixed: nofix
# shape: regression matching the histogram of the predictions (tf.histogram_fixed_width) to a target histogram
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(8, 3).astype(np.float32)
target_hist = np.array([2.0, 2.0, 2.0, 2.0], dtype=np.float32)

with tf.GradientTape() as tape:
    predictions = model(x_batch, training=True)
    hist = tf.histogram_fixed_width(predictions, [0.0, 1.0], nbins=4)
    loss = tf.reduce_mean(tf.square(tf.cast(hist, tf.float32) - target_hist))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
