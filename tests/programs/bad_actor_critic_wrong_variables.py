# expect: GG302@32
# tensorflow: none
# fixed: ok
# shape: actor-critic, actor loss differentiated with respect to the critic's variables
import numpy as np
import tensorflow as tf
import keras

n_states, n_actions, batch_size = 4, 2, 8

actor = keras.Sequential([
    keras.Input(shape=(n_states,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions, activation="softmax"),
], name="actor")
critic = keras.Sequential([
    keras.Input(shape=(n_states,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
], name="critic")
actor_optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(batch_size, n_states).astype(np.float32)
actions = np.random.randint(0, n_actions, size=batch_size)
returns = np.random.rand(batch_size).astype(np.float32)
advantages = (returns - returns.mean()) / (returns.std() + 1e-8)  # critic baseline comes later

with tf.GradientTape() as tape:
    probs = actor(states, training=True)
    log_probs = tf.math.log(tf.reduce_sum(probs * tf.one_hot(actions, n_actions), axis=1) + 1e-8)
    actor_loss = -tf.reduce_mean(log_probs * advantages)
actor_grads = tape.gradient(actor_loss, critic.trainable_variables)
actor_optimizer.apply_gradients(zip(actor_grads, actor.trainable_variables))
