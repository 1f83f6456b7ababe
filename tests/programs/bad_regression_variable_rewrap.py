# expect: GG106@20
# tensorflow: none
# fixed: ok
# shape: regression with a manual tape, the predictions re-wrapped in a new tf.Variable before the loss
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(2,)),
    keras.layers.Dense(4, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.SGD(learning_rate=0.05)

x = np.random.rand(8, 2).astype(np.float32)
y = (x[:, :1] * 3.0 + x[:, 1:] * -2.0).astype(np.float32)

with tf.GradientTape() as tape:
    y_hat = tf.Variable(model(x, training=True))
    loss = tf.reduce_mean(tf.square(y - y_hat))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
