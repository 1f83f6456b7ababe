# expect: none
# tensorflow: ok
# shape: tf.py_function wrapping a Python function that uses only TF ops (differentiable, unlike tf.numpy_function)
import numpy as np
import tensorflow as tf


def weighted_mse(y_true, y_pred, weights):
    return tf.reduce_mean(weights * tf.square(y_true - y_pred))


model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-2)
x = np.random.rand(8, 5).astype(np.float32)
y = np.random.rand(8, 1).astype(np.float32)
w = np.linspace(0.5, 1.5, 8).reshape(8, 1).astype(np.float32)

with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.py_function(func=weighted_mse, inp=[y, pred, w], Tout=tf.float32)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(loss.numpy())
