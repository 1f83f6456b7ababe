# expect: GG102
# tensorflow: none
# shape: a helper taken with `import *` squashes the policy output with np.tanh
import tensorflow as tf
from tensorflow import keras

from rlkit.star_helpers import *

policy = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
advantages = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    actions = squash(policy(states))
    loss = -tf.reduce_mean(actions * advantages)
grads = tape.gradient(loss, policy.trainable_variables)
