# expect: GG405@25
# tensorflow: none
# fixed: nofix
# shape: image-to-image net trained to match the grey-level histogram of a template image: tf.histogram_fixed_width of the output against the template's, l2 loss between the counts
# source: https://github.com/tensorflow/tensorflow/issues/14894
# family: 4
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(8, 8, 1)),
    keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(0.001)

values_range = tf.constant([0.0, 1.0], dtype=tf.float32)
source_images = np.random.rand(2, 8, 8, 1).astype(np.float32)
template = np.random.beta(2.0, 5.0, size=(2, 8, 8, 1)).astype(np.float32)
template_hist = tf.cast(tf.histogram_fixed_width(template, values_range, 11), tf.float32)

with tf.GradientTape() as tape:
    output = model(source_images, training=True)
    source_hist = tf.histogram_fixed_width(output, values_range, 11)
    source_hist = tf.cast(source_hist, tf.float32)
    loss = 2 * tf.nn.l2_loss(source_hist - template_hist)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
