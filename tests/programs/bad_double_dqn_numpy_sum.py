# expect: GG102@39
# tensorflow: none
# fixed: ok
# shape: Double DQN step (online argmax, target network evaluates), chosen Q-value picked with numpy's sum (import numpy as onp)
import numpy as onp
import tensorflow as tf
from tensorflow import keras

n_states, n_actions, batch_size = 4, 3, 8
gamma = 0.99


def build_q_network():
    return keras.Sequential([
        keras.Input(shape=(n_states,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


online = build_q_network()
target = build_q_network()
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(learning_rate=5e-4)

states = onp.random.rand(batch_size, n_states).astype(onp.float32)
actions = onp.random.randint(0, n_actions, size=batch_size)
rewards = onp.random.rand(batch_size).astype(onp.float32)
next_states = onp.random.rand(batch_size, n_states).astype(onp.float32)
dones = onp.random.randint(0, 2, size=batch_size).astype(onp.float32)

next_actions = tf.argmax(online(next_states), axis=1)
next_q = tf.gather(target(next_states), next_actions, axis=1, batch_dims=1)
target_q = rewards + gamma * next_q * (1.0 - dones)
masks = tf.one_hot(actions, n_actions)

with tf.GradientTape() as tape:
    q_values = online(states, training=True)
    q_action = onp.sum(q_values * masks, axis=1)
    loss = tf.reduce_mean(tf.square(target_q - q_action))
grads = tape.gradient(loss, online.trainable_variables)
optimizer.apply_gradients(zip(grads, online.trainable_variables))
