# expect: GG102
# tensorflow: none
# shape: another module's function returns the model's output; np.asarray on it inside the tape
import numpy as np
import tensorflow as tf
from tensorflow import keras

from rlkit.predict import q_values

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = np.asarray(q_values(model, states))
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, model.trainable_variables)
