# expect: none
# tensorflow: ok
# shape: a replay buffer hands out numpy arrays; numpy work on them is harmless
import numpy as np
import tensorflow as tf
from tensorflow import keras

from rlkit.buffers import NumpyBuffer
from rlkit.convert import as_array, to_numpy

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
buffer = NumpyBuffer()
states, rewards = buffer.sample()
rewards = np.clip(as_array(rewards), -1.0, 1.0)
targets = np.stack([rewards, rewards], axis=1)

with tf.GradientTape() as tape:
    q = model(tf.convert_to_tensor(states))
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, model.trainable_variables)
print("loss", float(to_numpy(loss)))
