# expect: GG402@23
# tensorflow: none
# fixed: nofix
# shape: policy update weighting the greedy action tf.one_hot(tf.argmax(logits)) by the rewards instead of log-probabilities
import numpy as np
import tensorflow as tf
from tensorflow import keras

obs_dim, n_actions, batch_size = 4, 3, 8

policy = keras.Sequential([
    keras.Input(shape=(obs_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions),
])
optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(batch_size, obs_dim).astype(np.float32)
rewards = np.random.rand(batch_size, n_actions).astype(np.float32)

with tf.GradientTape() as tape:
    logits = policy(states, training=True)
    greedy = tf.one_hot(tf.argmax(logits, axis=1), n_actions)
    loss = -tf.reduce_mean(tf.reduce_sum(greedy * rewards, axis=1))
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
