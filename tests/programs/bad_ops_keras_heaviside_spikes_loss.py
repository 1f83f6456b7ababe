# expect: GG405@25
# tensorflow: none
# fixed: nofix
# shape: spiking-style layer written with Keras 3 ops: the membrane potential fires through keras.ops.heaviside (a step, no gradient for its first argument) and the spike rate is fitted to a target rate
# family: 4
import numpy as np
import keras
from keras import ops
import tensorflow as tf

encoder = keras.Sequential([
    keras.Input(shape=(10,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(16),
])
optimizer = keras.optimizers.Adam(1e-3)
threshold = 0.1

inputs = np.random.rand(32, 10).astype("float32")
target_rate = np.full((32, 16), 0.3, dtype="float32")

for epoch in range(2):
    with tf.GradientTape() as tape:
        membrane = encoder(inputs, training=True)
        spikes = ops.heaviside(membrane - threshold, 0.0)
        loss = ops.mean(ops.square(spikes - target_rate))
    grads = tape.gradient(loss, encoder.trainable_variables)
    optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
