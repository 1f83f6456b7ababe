# expect: none
# tensorflow: ok
# shape: a buffer hands out tensors; converting those inputs to numpy is harmless, and so is a helper that stays in TF
import tensorflow as tf
from tensorflow import keras

from rlkit import to_numpy
from rlkit.buffers import TensorBuffer
from rlkit.convert import scale

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states, rewards = TensorBuffer().sample()
clipped = tf.clip_by_value(tf.constant(to_numpy(rewards)), -1.0, 1.0)

with tf.GradientTape() as tape:
    q = scale(model(states))
    loss = tf.reduce_mean(tf.square(clipped[:, None] - q))
grads = tape.gradient(loss, model.trainable_variables)
