# expect: GG107@28
# tensorflow: none
# fixed: nofix
# shape: regression with a manual tape, the loss computed by a numpy Huber function through tf.numpy_function
import numpy as np
import tensorflow as tf
from tensorflow import keras


def np_huber(y_true, y_pred, delta=1.0):
    err = np.abs(y_true - y_pred)
    quad = np.minimum(err, delta)
    return np.mean(0.5 * quad ** 2 + delta * (err - quad)).astype(np.float32)


model = keras.Sequential([
    keras.Input(shape=(3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(8, 3).astype(np.float32)
y_batch = np.random.rand(8, 1).astype(np.float32)

with tf.GradientTape() as tape:
    y_pred = model(x_batch, training=True)
    loss = tf.numpy_function(np_huber, [y_batch, y_pred], tf.float32)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
