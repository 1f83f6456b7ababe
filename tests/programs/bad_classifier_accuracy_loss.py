# expect: GG404@21
# tensorflow: none
# fixed: nofix
# shape: binary classifier trained on 1 - accuracy, with tf.greater thresholding the probabilities
import numpy as np
import tensorflow as tf
from tensorflow import keras

classifier = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(8, 5).astype(np.float32)
labels = np.random.randint(0, 2, size=(8, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    probabilities = classifier(x_batch, training=True)
    predicted = tf.cast(tf.greater(probabilities, 0.5), tf.float32)
    accuracy = tf.reduce_mean(1.0 - tf.abs(labels - predicted))
    loss = 1.0 - accuracy
grads = tape.gradient(loss, classifier.trainable_variables)
optimizer.apply_gradients(zip(grads, classifier.trainable_variables))
