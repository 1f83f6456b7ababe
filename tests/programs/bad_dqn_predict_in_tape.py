# expect: GG105@33
# tensorflow: none
# fixed: ok
# shape: DQN training step using model.predict for the Q-values inside the tape
import numpy as np
import tensorflow as tf
import keras

state_size, action_size, batch_size = 4, 2, 8
gamma = 0.95

model = keras.Sequential([
    keras.Input(shape=(state_size,)),
    keras.layers.Dense(24, activation="relu"),
    keras.layers.Dense(action_size, activation="linear"),
])
target_model = keras.models.clone_model(model)
target_model.set_weights(model.get_weights())
optimizer = keras.optimizers.Adam(learning_rate=0.001)
loss_fn = keras.losses.MeanSquaredError()

states = np.random.rand(batch_size, state_size).astype(np.float32)
actions = np.random.randint(0, action_size, size=batch_size)
rewards = np.random.rand(batch_size).astype(np.float32)
next_states = np.random.rand(batch_size, state_size).astype(np.float32)
dones = np.random.randint(0, 2, size=batch_size).astype(np.float32)

future_rewards = target_model(next_states)
target_q = rewards + gamma * tf.reduce_max(future_rewards, axis=1) * (1 - dones)
masks = tf.one_hot(actions, action_size)

with tf.GradientTape() as tape:
    q_values = model.predict(states, verbose=0)
    q_action = tf.reduce_sum(tf.multiply(q_values, masks), axis=1)
    loss = loss_fn(target_q, q_action)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
