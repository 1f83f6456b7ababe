# expect: GG101@26
# tensorflow: none
# fixed: ok
# shape: the seed question's DQN written the common way: two networks from one factory in one tuple assignment, the target computed with `target_net` before the tape (correct) and `q_net(states).numpy()` inside it (the bug); each name is its own network (after the seed Q&A in shared/seeds, itself from a Stack Exchange question by Planetcat, "No gradients provided for any variable" in a DQN)
import numpy as np
import tensorflow as tf
from tensorflow import keras

num_actions, gamma = 2, 0.99


def build_q_net():
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(num_actions)])


q_net, target_net = build_q_net(), build_q_net()
optimizer = keras.optimizers.Adam(1e-3)
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, num_actions, size=8)
rewards = np.random.rand(8).astype("float32")
dones = np.zeros(8, dtype="float32")

target_q_values = rewards + gamma * tf.reduce_max(target_net(next_states), axis=1) * (1 - dones)
with tf.GradientTape() as tape:
    current_q = q_net(states).numpy()
    current_q_values = tf.reduce_sum(current_q * tf.one_hot(actions, num_actions), axis=1)
    loss = tf.reduce_mean(tf.square(target_q_values - current_q_values))
gradients = tape.gradient(loss, q_net.trainable_variables)
