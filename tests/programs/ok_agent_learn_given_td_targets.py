# expect: none
# tensorflow: ok
# shape: the same DQN agent done right: `train` computes the TD targets with `self.target_net` (a constant for the update, on purpose) and hands them to `self.learn(states, actions, targets)`, whose tape runs `self.q_net(states)` itself
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Agent:
    def __init__(self, n_actions):
        self.q_net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"),
                                       keras.layers.Dense(n_actions)])
        self.target_net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"),
                                            keras.layers.Dense(n_actions)])
        self.optimizer = keras.optimizers.Adam(1e-3)
        self.gamma = 0.99

    def train(self, states, actions, rewards, next_states):
        next_q = self.target_net(next_states)
        targets = rewards + self.gamma * tf.reduce_max(next_q, axis=1)
        self.learn(states, actions, targets)

    def learn(self, states, actions, targets):
        with tf.GradientTape() as tape:
            q_values = self.q_net(states)
            chosen = tf.reduce_sum(q_values * tf.one_hot(actions, 2), axis=1)
            loss = tf.reduce_mean(tf.square(targets - chosen))
        grads = tape.gradient(loss, self.q_net.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.q_net.trainable_variables))


agent = Agent(2)
states = np.random.rand(8, 4).astype("float32")
agent.train(states, np.random.randint(0, 2, 8), np.random.rand(8).astype("float32"),
            np.random.rand(8, 4).astype("float32"))
