# expect: GG102
# tensorflow: none
# shape: the network is built in another module under a name that does not say "model"
import numpy as np
import tensorflow as tf

from rlkit.nets import build_q_network

approximator = build_q_network()
optimizer = tf.keras.optimizers.Adam(1e-3)
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = np.round(approximator(states))
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, approximator.trainable_variables)
