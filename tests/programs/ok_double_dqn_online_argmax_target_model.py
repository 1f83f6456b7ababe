# expect: none
# tensorflow: ok
# shape: Double DQN: argmax from the online model picks next actions, target_model evaluates them, target wrapped in tf.stop_gradient (after a Double DQN blog post)
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_actions = 4
gamma = 0.95
batch_size = 8


def build():
    return keras.Sequential([
        keras.Input(shape=(6,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


online = build()
target_model = build()
target_model.set_weights(online.get_weights())
opt = keras.optimizers.RMSprop(learning_rate=5e-4)

states = np.random.rand(batch_size, 6).astype("float32")
next_states = np.random.rand(batch_size, 6).astype("float32")
actions = np.random.randint(0, n_actions, size=batch_size)
rewards = np.random.rand(batch_size).astype("float32")
dones = np.zeros(batch_size, dtype="float32")


def train_step(states, actions, rewards, next_states, dones):
    next_actions = tf.argmax(online(next_states), axis=1, output_type=tf.int32)
    idx = tf.stack([tf.range(batch_size, dtype=tf.int32), next_actions], axis=1)
    next_q = tf.gather_nd(target_model(next_states), idx)
    target = tf.stop_gradient(rewards + gamma * (1.0 - dones) * next_q)
    with tf.GradientTape() as tape:
        q = online(states, training=True)
        q_taken = tf.gather(q, actions, axis=1, batch_dims=1)
        loss = tf.reduce_mean(tf.square(target - q_taken))
    grads = tape.gradient(loss, online.trainable_variables)
    opt.apply_gradients(zip(grads, online.trainable_variables))
    return loss


for step in range(2):
    loss = train_step(states, actions, rewards, next_states, dones)
    print(step, loss.numpy())
