# expect: GG302@37
# tensorflow: none
# fixed: ok
# shape: DQN training step asking the tape for target_model.trainable_variables while the loss only uses model
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_states, n_actions, batch_size = 4, 2, 8
gamma = 0.99


def build_q_network():
    inputs = keras.Input(shape=(n_states,))
    hidden = keras.layers.Dense(16, activation="relu")(inputs)
    return keras.Model(inputs, keras.layers.Dense(n_actions)(hidden))


model = build_q_network()
target_model = build_q_network()
target_model.set_weights(model.get_weights())
optimizer = keras.optimizers.Adam(learning_rate=1e-3)

states = np.random.rand(batch_size, n_states).astype(np.float32)
actions = np.random.randint(0, n_actions, size=batch_size)
rewards = np.random.rand(batch_size).astype(np.float32)
next_states = np.random.rand(batch_size, n_states).astype(np.float32)
dones = np.random.randint(0, 2, size=batch_size).astype(np.float32)

next_q = model(next_states)  # the target network is only synced every few steps
target_q = rewards + gamma * tf.reduce_max(next_q, axis=1) * (1.0 - dones)

with tf.GradientTape() as tape:
    q_values = model(states, training=True)
    q_action = tf.reduce_sum(q_values * tf.one_hot(actions, n_actions), axis=1)
    loss = tf.reduce_mean(tf.square(target_q - q_action))
grads = tape.gradient(loss, target_model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
