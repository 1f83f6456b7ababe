# expect: GG101
# tensorflow: none
# shape: an imported helper calls .numpy() on the Q-values inside the tape
import tensorflow as tf
from tensorflow import keras

from rlkit import to_numpy

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = to_numpy(model(states))
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, model.trainable_variables)
