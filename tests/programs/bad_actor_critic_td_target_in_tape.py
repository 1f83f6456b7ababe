# expect: GG202@26
# tensorflow: ok
# fixed: differs
# shape: one-step actor-critic, critic's TD(0) target built from critic(next_states) inside the critic tape
import numpy as np
import tensorflow as tf
import keras

obs_dim, batch_size = 3, 8
gamma = 0.9

critic = keras.Sequential([
    keras.Input(shape=(obs_dim,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
critic_optimizer = keras.optimizers.Adam(5e-3)

states = np.random.rand(batch_size, obs_dim).astype(np.float32)
rewards = np.random.rand(batch_size, 1).astype(np.float32)
next_states = np.random.rand(batch_size, obs_dim).astype(np.float32)
dones = np.random.randint(0, 2, size=(batch_size, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    values = critic(states, training=True)
    td_target = rewards + gamma * critic(next_states, training=True) * (1.0 - dones)
    advantage = td_target - values
    critic_loss = tf.reduce_mean(tf.square(advantage))
critic_grads = tape.gradient(critic_loss, critic.trainable_variables)
critic_optimizer.apply_gradients(zip(critic_grads, critic.trainable_variables))
