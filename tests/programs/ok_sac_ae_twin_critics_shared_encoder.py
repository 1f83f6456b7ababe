# expect: none
# tensorflow: ok
# shape: SAC-AE's critic update in an agent class: one persistent tape records the shared `self._encoder` and the twin critics `self.qf1`, `self.qf2` (two instances of one class), and each TD loss is differentiated for the encoder's variables plus its own critic's; every gradient exists (the thread is about the order: qf1's optimizer already moved the encoder when q2_grad is taken, a silent inconsistency the tape does not report)
# source: https://github.com/keiohta/tf2rl/issues/162
# family: 1
import numpy as np
import tensorflow as tf
from tensorflow import keras


class CriticQ(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, features, actions):
        return tf.squeeze(self.out(self.hidden(tf.concat([features, actions], axis=1))), axis=1)


class SACAE:
    def __init__(self):
        self._encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu")])
        self.qf1, self.qf2 = CriticQ(), CriticQ()
        self.qf1_optimizer = keras.optimizers.Adam(1e-3)
        self.qf2_optimizer = keras.optimizers.Adam(1e-3)
        self.discount = 0.99

    def _update_critic(self, obses, actions, rewards, not_dones, min_next_target_q):
        with tf.GradientTape(persistent=True) as tape:
            target_q = tf.stop_gradient(rewards + not_dones * self.discount * min_next_target_q)
            obs_features = self._encoder(obses)
            current_q1 = self.qf1(obs_features, actions)
            current_q2 = self.qf2(obs_features, actions)
            td_loss_q1 = tf.reduce_mean((target_q - current_q1) ** 2)
            td_loss_q2 = tf.reduce_mean((target_q - current_q2) ** 2)
        q1_grad = tape.gradient(td_loss_q1, self._encoder.trainable_variables + self.qf1.trainable_variables)
        self.qf1_optimizer.apply_gradients(zip(q1_grad, self._encoder.trainable_variables + self.qf1.trainable_variables))
        q2_grad = tape.gradient(td_loss_q2, self._encoder.trainable_variables + self.qf2.trainable_variables)
        self.qf2_optimizer.apply_gradients(zip(q2_grad, self._encoder.trainable_variables + self.qf2.trainable_variables))
        del tape


agent = SACAE()
obses = np.random.rand(8, 6).astype("float32")
actions = np.random.rand(8, 2).astype("float32")
rewards = np.random.rand(8).astype("float32")
not_dones = np.ones(8, dtype="float32")
agent._update_critic(obses, actions, rewards, not_dones, np.random.rand(8).astype("float32"))
