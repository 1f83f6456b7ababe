# expect: GG401@30
# tensorflow: none
# fixed: nofix
# shape: binary classifier trained on a counting loss: tf.math.count_nonzero(tf.math.equal(tf.round(prediction), output)) over the batch, computed in a custom_loss helper called in the tape
# source: https://github.com/tensorflow/tensorflow/issues/58614
# family: 4
import numpy as np
import tensorflow as tf
import keras


def custom_loss(output, prediction):
    correct_count = tf.math.count_nonzero(tf.math.equal(tf.round(prediction), tf.cast(output, tf.float32)))
    incorrect_count = prediction.shape[0] - correct_count
    return tf.cast(incorrect_count, tf.float32) / prediction.shape[0]


model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(16, 6).astype(np.float32)
y_batch = np.random.randint(0, 2, size=(16, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    prediction = model(x_batch, training=True)
    loss = custom_loss(y_batch, prediction)
grads = tape.gradient(loss, model.trainable_weights)
optimizer.apply_gradients(zip(grads, model.trainable_weights))
