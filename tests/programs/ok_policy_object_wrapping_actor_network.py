# expect: none
# tensorflow: ok
# shape: the loss is computed through a policy object that wraps the actor network, and the gradient is asked for the network's variables (after tensorflow/agents tf_agents/agents/reinforce/reinforce_agent.py, whose loss reads `self.collect_policy.distribution(...)`)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class ActorPolicy:
    def __init__(self, actor_network):
        self._actor_network = actor_network

    def log_prob(self, observations, actions):
        logits = self._actor_network(observations)
        return tf.reduce_sum(tf.nn.log_softmax(logits) * tf.one_hot(actions, logits.shape[-1]), axis=1)


def train(collect_policy, actor_network, observations, actions, returns):
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(collect_policy.log_prob(observations, actions) * returns)
    variables_to_train = actor_network.trainable_weights
    return tape.gradient(loss, variables_to_train)


actor_network = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
policy = ActorPolicy(actor_network)
train(policy, actor_network, np.random.rand(8, 4).astype("float32"), np.random.randint(0, 3, size=8),
      np.random.rand(8).astype("float32"))
