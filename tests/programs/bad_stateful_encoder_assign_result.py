# expect: GG305@20
# tensorflow: none
# fixed: nofix
# shape: stateful encoder caching its output in a tf.Variable with .assign() and using the assign result in the loss
import numpy as np
import tensorflow as tf
from tensorflow import keras

encoder = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(4, activation="tanh"),
])
optimizer = keras.optimizers.Adam(1e-3)
hidden_state = tf.Variable(tf.zeros((8, 4)), trainable=False, name="hidden_state")

inputs = np.random.rand(8, 5).astype(np.float32)
targets = np.random.rand(8, 4).astype(np.float32)

with tf.GradientTape() as tape:
    state = hidden_state.assign(encoder(inputs, training=True))
    loss = tf.reduce_mean(tf.square(targets - state))
grads = tape.gradient(loss, encoder.trainable_variables)
optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
