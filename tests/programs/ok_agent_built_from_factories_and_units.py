# expect: none
# tensorflow: ok
# shape: an agent builds its networks in setup methods from a factory and unit counts (`actor_units=(16, 16)`, `self.critic_fn(...)`): constructors and parameters named like networks are not forward passes outside the tape (after keiohta/tf2rl tf2rl/algos/sac.py `_setup_actor` and sac_discrete.py `self.actor_fn(state_shape, action_dim, actor_units)`)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class CriticQ(keras.Model):
    def __init__(self, state_dim, critic_units=(16, 16)):
        super().__init__()
        self.hidden = [keras.layers.Dense(units, activation="relu") for units in critic_units]
        self.out = keras.layers.Dense(1)

    def call(self, states):
        x = states
        for layer in self.hidden:
            x = layer(x)
        return self.out(x)


class Agent:
    def __init__(self, state_dim, critic_units=(16, 16), critic_fn=None, lr=1e-3):
        self.critic_fn = critic_fn if critic_fn is not None else CriticQ
        self._setup_critic(state_dim, critic_units, lr)

    def _setup_critic(self, state_dim, critic_units, lr):
        self.qf = self.critic_fn(state_dim, critic_units)
        self.qf_optimizer = keras.optimizers.Adam(learning_rate=lr)

    def train(self, states, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(targets - self.qf(states)))
        grads = tape.gradient(loss, self.qf.trainable_variables)
        self.qf_optimizer.apply_gradients(zip(grads, self.qf.trainable_variables))
        return grads


agent = Agent(4)
agent.train(np.random.rand(8, 4).astype("float32"), np.random.rand(8, 1).astype("float32"))
