# expect: none
# tensorflow: ok
# shape: the policy's log-probabilities come from a method of the actor, not `actor(...)`: the method uses the actor's variables (after keiohta/tf2rl tf2rl/algos/sac_discrete.py `self.actor.compute_prob(states)` and the PPO/VPG agents' `self.actor.compute_log_probs`)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class CategoricalActor(keras.Model):
    def __init__(self, action_dim):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.logits = keras.layers.Dense(action_dim)

    def call(self, states):
        return tf.nn.softmax(self.logits(self.hidden(states)))

    def compute_log_probs(self, states, actions):
        probs = self(states)
        return tf.math.log(tf.reduce_sum(probs * tf.one_hot(actions, probs.shape[-1]), axis=1) + 1e-8)


def train_step(actor, optimizer, states, actions, advantages):
    with tf.GradientTape() as tape:
        log_probs = actor.compute_log_probs(states, actions)
        loss = -tf.reduce_mean(log_probs * advantages)
    grads = tape.gradient(loss, actor.trainable_variables)
    optimizer.apply_gradients(zip(grads, actor.trainable_variables))
    return grads


actor = CategoricalActor(3)
states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, 3, size=8)
advantages = np.random.rand(8).astype("float32")
actor(states)
train_step(actor, keras.optimizers.SGD(0.01), states, actions, advantages)
