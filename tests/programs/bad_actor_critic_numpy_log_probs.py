# expect: GG102@33
# tensorflow: none
# fixed: ok
# shape: actor-critic actor update, log-probabilities taken with np.log on the policy output
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_states, n_actions, batch_size = 4, 3, 8

actor = keras.Sequential([
    keras.Input(shape=(n_states,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions, activation="softmax"),
])
critic = keras.Sequential([
    keras.Input(shape=(n_states,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])
actor_optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(batch_size, n_states).astype(np.float32)
actions = np.random.randint(0, n_actions, size=batch_size)
returns = np.random.rand(batch_size).astype(np.float32)

values = tf.squeeze(critic(states), axis=1)
advantages = returns - values

with tf.GradientTape() as tape:
    probs = actor(states, training=True)
    action_probs = tf.reduce_sum(probs * tf.one_hot(actions, n_actions), axis=1)
    log_probs = np.log(action_probs + 1e-8)
    actor_loss = -tf.reduce_mean(log_probs * advantages)
actor_grads = tape.gradient(actor_loss, actor.trainable_variables)
actor_optimizer.apply_gradients(zip(actor_grads, actor.trainable_variables))
