# expect: GG405@24
# tensorflow: none
# fixed: nofix
# shape: calibration loss that puts each predicted probability into a confidence bin with tfp.stats.find_bins and penalises the bin number against the accuracy; find_bins returns bin numbers from a search (UpperBound), which have no gradient
# family: 4
import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp
import keras

classifier = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(12, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

x = np.random.rand(16, 6).astype("float32")
correct = np.random.randint(0, 2, size=(16, 1)).astype("float32")
edges = tf.linspace(0.0, 1.0, 11)

with tf.GradientTape() as tape:
    confidence = classifier(x, training=True)
    bins = tfp.stats.find_bins(confidence, edges)
    loss = tf.reduce_mean(tf.square(bins / 10.0 - correct))
grads = tape.gradient(loss, classifier.trainable_variables)
optimizer.apply_gradients(zip(grads, classifier.trainable_variables))
