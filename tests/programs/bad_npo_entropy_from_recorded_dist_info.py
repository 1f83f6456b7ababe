# expect: GG101@36
# tensorflow: ok
# fixed: nofix
# shape: NPO/PPO with a Gaussian MLP policy and an entropy bonus `policy_ent_coeff * policy_entropy`: the entropy is computed from the `dist_info` recorded by the sampler (`log_std` through `.numpy()`), not from the policy's forward pass in the tape, so the bonus is a constant: every gradient exists (the surrogate keeps all variables alive) but no value of `policy_ent_coeff` changes the policy's standard deviation ("a gradient path is broken between the reward function and the policy std network"); the maintainers' fix computes the entropy from the policy's own output in the loss
# source: https://github.com/rlworkgroup/garage/issues/281
# family: 5
import math

import numpy as np
import tensorflow as tf
from tensorflow import keras


class GaussianMLPPolicy(keras.Model):
    def __init__(self, action_dim):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="tanh")
        self.mean = keras.layers.Dense(action_dim)
        self.log_std = self.add_weight(shape=(action_dim,), initializer="zeros", name="log_std")

    def call(self, observations):
        mean = self.mean(self.hidden(observations))
        return mean, tf.ones_like(mean) * self.log_std


def log_likelihood(actions, mean, log_std):
    z = (actions - mean) / tf.exp(log_std)
    return tf.reduce_sum(-0.5 * tf.square(z) - log_std - 0.5 * math.log(2 * math.pi), axis=-1)


policy = GaussianMLPPolicy(2)
optimizer = keras.optimizers.Adam(1e-3)
policy_ent_coeff = 0.1
observations = np.random.rand(8, 3).astype("float32")
mean, log_std = policy(observations)
agent_infos = {"mean": mean.numpy(), "log_std": log_std.numpy()}
actions = (agent_infos["mean"] + np.exp(agent_infos["log_std"]) * np.random.randn(8, 2)).astype("float32")
advantages = np.random.randn(8).astype("float32")
old_logli = log_likelihood(actions, agent_infos["mean"], agent_infos["log_std"])

with tf.GradientTape() as tape:
    new_mean, new_log_std = policy(observations)
    logli = log_likelihood(actions, new_mean, new_log_std)
    surrogate = tf.reduce_mean(tf.exp(logli - old_logli) * advantages)
    policy_entropy = tf.reduce_sum(agent_infos["log_std"] + 0.5 * math.log(2 * math.pi * math.e), axis=-1)
    loss = -surrogate - policy_ent_coeff * tf.reduce_mean(policy_entropy)
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
