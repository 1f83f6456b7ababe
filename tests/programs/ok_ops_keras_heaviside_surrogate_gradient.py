# expect: none
# tensorflow: ok
# shape: the same spiking-style layer with a surrogate gradient: keras.ops.heaviside gives the spikes forward, a steep sigmoid gives the gradient backward (stop_gradient on the difference)
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
        surrogate = ops.sigmoid(10.0 * (membrane - threshold))
        spikes = surrogate + ops.stop_gradient(ops.heaviside(membrane - threshold, 0.0) - surrogate)
        loss = ops.mean(ops.square(spikes - target_rate))
    grads = tape.gradient(loss, encoder.trainable_variables)
    optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
