# expect: none
# tensorflow: ok
# shape: the same classifier with a differentiable calibration term: tfp.stats.percentile of the predicted confidences (sorted values, which have a gradient) and tfp.stats.find_bins only on the labels
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
    label_bins = tfp.stats.find_bins(correct, edges)
    high = tfp.stats.percentile(confidence, 90.0)
    loss = tf.reduce_mean(tf.square(confidence - correct)) + tf.square(high - tf.reduce_mean(label_bins) / 10.0)
grads = tape.gradient(loss, classifier.trainable_variables)
optimizer.apply_gradients(zip(grads, classifier.trainable_variables))
