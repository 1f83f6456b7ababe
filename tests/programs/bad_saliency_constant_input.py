# expect: GG306@20
# tensorflow: none
# fixed: ok
# shape: saliency map, gradient of the class score with respect to a tf.constant input without tape.watch
import numpy as np
import tensorflow as tf
from tensorflow import keras

classifier = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(3, activation="softmax"),
])

images = tf.constant(np.random.rand(8, 6), dtype=tf.float32)

with tf.GradientTape() as tape:
    predictions = classifier(images)
    class_scores = tf.reduce_max(predictions, axis=1)
saliency = tape.gradient(class_scores, images)
saliency_map = tf.reduce_max(tf.abs(saliency), axis=-1)
