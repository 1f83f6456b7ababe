# expect: GG307@37
# tensorflow: raises RuntimeError
# fixed: ok
# shape: actor-critic with one non-persistent tape asked twice (actor loss, then critic loss)
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_states, n_actions, batch_size = 4, 2, 8
gamma = 0.99

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
critic_optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(batch_size, n_states).astype(np.float32)
actions = np.random.randint(0, n_actions, size=batch_size)
returns = np.random.rand(batch_size, 1).astype(np.float32)

with tf.GradientTape() as tape:
    probs = actor(states, training=True)
    values = critic(states, training=True)
    advantages = returns - values
    log_probs = tf.math.log(tf.reduce_sum(probs * tf.one_hot(actions, n_actions), axis=1, keepdims=True))
    actor_loss = -tf.reduce_mean(log_probs * tf.stop_gradient(advantages))
    critic_loss = tf.reduce_mean(tf.square(advantages))
actor_grads = tape.gradient(actor_loss, actor.trainable_variables)
critic_grads = tape.gradient(critic_loss, critic.trainable_variables)
actor_optimizer.apply_gradients(zip(actor_grads, actor.trainable_variables))
critic_optimizer.apply_gradients(zip(critic_grads, critic.trainable_variables))
