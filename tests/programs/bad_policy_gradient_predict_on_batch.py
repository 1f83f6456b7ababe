# expect: GG105@31
# tensorflow: none
# fixed: ok
# shape: REINFORCE policy-gradient step with policy.predict_on_batch for the action probabilities
import numpy as np
import tensorflow as tf
from tensorflow import keras

obs_dim, n_actions = 4, 2

policy = keras.Sequential([
    keras.Input(shape=(obs_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions, activation="softmax"),
])
optimizer = keras.optimizers.Adam(1e-2)

# one finished episode of 8 steps
states = np.random.rand(8, obs_dim).astype(np.float32)
actions = np.random.randint(0, n_actions, size=8)
rewards = np.random.rand(8).astype(np.float32)
gamma = 0.99
discounted = np.zeros_like(rewards)
running = 0.0
for t in reversed(range(len(rewards))):
    running = rewards[t] + gamma * running
    discounted[t] = running
discounted = (discounted - discounted.mean()) / (discounted.std() + 1e-8)

with tf.GradientTape() as tape:
    probs = policy.predict_on_batch(states)
    chosen = tf.reduce_sum(probs * tf.one_hot(actions, n_actions), axis=1)
    loss = -tf.reduce_sum(tf.math.log(chosen) * discounted)
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
