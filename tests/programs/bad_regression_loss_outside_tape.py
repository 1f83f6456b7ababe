# expect: GG301@22
# tensorflow: none
# fixed: nofix
# shape: regression with a manual tape, only the forward pass inside the with block, the loss computed after it
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)
loss_fn = keras.losses.MeanSquaredError()

x_batch = np.random.rand(8, 4).astype(np.float32)
y_batch = np.random.rand(8, 1).astype(np.float32)

with tf.GradientTape() as tape:
    predictions = model(x_batch, training=True)
loss = loss_fn(y_batch, predictions)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
