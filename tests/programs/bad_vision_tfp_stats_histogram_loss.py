# expect: GG405@25
# tensorflow: none
# fixed: nofix
# shape: exposure-correction net whose loss compares tfp.stats.histogram of the predicted pixel intensities with a target histogram; tfp.stats.histogram counts with integer bins and has no gradient, silently
# source: https://github.com/tensorflow/tensorflow/issues/44535
# family: 4
import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp
import keras

model = keras.Sequential([
    keras.Input(shape=(8, 8, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(3, 1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

edges = tf.linspace(0.0, 1.0, 9)
dark_images = (np.random.rand(2, 8, 8, 3) * 0.3).astype(np.float32)
target_hist = tf.fill([8], 2.0 * 8 * 8 * 3 / 8)

with tf.GradientTape() as tape:
    corrected = model(dark_images, training=True)
    hist = tfp.stats.histogram(tf.reshape(corrected, [-1]), edges)
    loss = tf.reduce_mean(tf.square(hist - target_hist))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
