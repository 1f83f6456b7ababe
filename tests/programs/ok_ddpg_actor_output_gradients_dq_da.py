# expect: none
# tensorflow: ok
# shape: a DDPG agent class whose `train` method updates the actor in two tapes: the first records `a = self.actor(states_batch)`, watches `a` and differentiates the critic's `q` with respect to it (`dq_da`), the second records the actor again and pulls `-dq_da` back to the actor's variables with `output_gradients`; both gradients exist (the thread asked how `a = self.actor(...)` makes this work)
# source: https://github.com/Dekki-Aero/DDPG/issues/2
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras


def build_actor(state_dim, action_dim):
    return keras.Sequential([keras.Input((state_dim,)), keras.layers.Dense(16, activation="relu"),
                             keras.layers.Dense(action_dim, activation="tanh")])


def build_critic(state_dim, action_dim):
    state, action = keras.Input((state_dim,)), keras.Input((action_dim,))
    hidden = keras.layers.Dense(16, activation="relu")(keras.layers.Concatenate()([state, action]))
    return keras.Model([state, action], keras.layers.Dense(1)(hidden))


class DDPG:
    def __init__(self, state_dim, action_dim):
        self.actor = build_actor(state_dim, action_dim)
        self.critic = build_critic(state_dim, action_dim)
        self.actor_opt = keras.optimizers.Adam(1e-3)

    def train(self, states_batch):
        with tf.GradientTape() as tape:
            a = self.actor(states_batch)
            tape.watch(a)
            q = self.critic([states_batch, a])
        dq_da = tape.gradient(q, a)

        with tf.GradientTape() as tape:
            a = self.actor(states_batch)
            theta = self.actor.trainable_variables
        da_dtheta = tape.gradient(a, theta, output_gradients=-dq_da)
        self.actor_opt.apply_gradients(zip(da_dtheta, self.actor.trainable_variables))


agent = DDPG(3, 2)
agent.train(tf.constant(np.random.rand(8, 3).astype("float32")))
