# expect: none
# tensorflow: ok
# shape: DQN replay batch built with np.stack/astype/np.clip, one_hot action mask, tf.stop_gradient target (after the Keras "Deep Q-Learning for Atari" example)
import random
from collections import deque

import numpy as np
import tensorflow as tf

num_actions = 3
gamma = 0.99
rng = np.random.default_rng(0)

model = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(num_actions),
])
model_target = tf.keras.models.clone_model(model)
model_target.set_weights(model.get_weights())
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
loss_function = tf.keras.losses.Huber()

replay = deque(maxlen=100)
for _ in range(32):
    s = rng.normal(size=4)
    replay.append((s, int(rng.integers(num_actions)), float(rng.normal()), rng.normal(size=4), bool(rng.random() < 0.1)))

batch = random.sample(list(replay), 8)
states, actions, rewards, next_states, dones = zip(*batch)
state_sample = np.stack(states).astype(np.float32)
state_next_sample = np.stack(next_states).astype(np.float32)
rewards_sample = np.clip(np.array(rewards, dtype=np.float32), -1.0, 1.0)
action_sample = np.array(actions)
done_sample = tf.convert_to_tensor([float(d) for d in dones])

future_rewards = model_target(state_next_sample)
updated_q_values = rewards_sample + gamma * tf.reduce_max(future_rewards, axis=1)
updated_q_values = updated_q_values * (1 - done_sample) - done_sample

masks = tf.one_hot(action_sample, num_actions)

with tf.GradientTape() as tape:
    q_values = model(state_sample)
    q_action = tf.reduce_sum(tf.multiply(q_values, masks), axis=1)
    loss = loss_function(tf.stop_gradient(updated_q_values), q_action)

grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss", float(loss))
