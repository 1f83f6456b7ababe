# expect: GG102
# tensorflow: none
# shape: the agent object from another module owns the network; its output goes through np.clip
import numpy as np
import tensorflow as tf

from rlkit.agents import Agent

agent = Agent()
states = tf.random.normal((8, 4))
agent.scorer(states)  # build the weights
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = np.clip(agent.scorer(states), -10.0, 10.0)
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, agent.scorer.trainable_variables)
