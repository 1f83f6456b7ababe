# expect: GG301@22
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/41510
# shape: one persistent tape for a PINN residual; u_x = tape.gradient(u, x) is called after the with-block closes, so the derivative op is not recorded and d(residual)/d(weights) is None
# heldout: 7
import tensorflow as tf
from tensorflow import keras

u_model = keras.Sequential([
    keras.Input(shape=(1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)
x = tf.random.uniform([32, 1], -1.0, 1.0)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    u = u_model(x)

u_x = tape.gradient(u, x)
residual = u_x + u - (tf.cos(x) + tf.sin(x))
loss = tf.reduce_mean(tf.square(residual))
grads = tape.gradient(loss, u_model.trainable_variables)
del tape
optimizer.apply_gradients(zip(grads, u_model.trainable_variables))
