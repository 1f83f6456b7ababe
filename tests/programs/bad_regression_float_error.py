# expect: GG103@21
# tensorflow: none
# fixed: ok
# shape: regression with a manual tape, mean error turned into a Python float before squaring
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

x_batch = np.random.rand(8, 3).astype(np.float32)
y_batch = np.random.rand(8, 1).astype(np.float32)

with tf.GradientTape() as tape:
    predictions = model(x_batch, training=True)
    mean_error = float(tf.reduce_mean(y_batch - predictions))
    loss = tf.square(mean_error)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
