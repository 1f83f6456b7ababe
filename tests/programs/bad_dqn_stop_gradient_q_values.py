# expect: GG201@29
# tensorflow: none
# fixed: ok
# shape: DQN training step with tf.stop_gradient put around the online network's Q-values instead of the target
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_states, n_actions, batch_size = 4, 2, 8
gamma = 0.99

model = keras.Sequential([
    keras.Input(shape=(n_states,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions),
])
target_model = keras.models.clone_model(model)
target_model.set_weights(model.get_weights())
optimizer = keras.optimizers.Adam(learning_rate=1e-3)
huber = keras.losses.Huber()

states = np.random.rand(batch_size, n_states).astype(np.float32)
actions = np.random.randint(0, n_actions, size=batch_size)
rewards = np.random.rand(batch_size).astype(np.float32)
next_states = np.random.rand(batch_size, n_states).astype(np.float32)
dones = np.random.randint(0, 2, size=batch_size).astype(np.float32)

with tf.GradientTape() as tape:
    q_values = tf.stop_gradient(model(states, training=True))
    q_action = tf.gather(q_values, actions, axis=1, batch_dims=1)
    next_q = target_model(next_states)
    target_q = rewards + gamma * tf.reduce_max(next_q, axis=1) * (1.0 - dones)
    loss = huber(target_q, q_action)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
