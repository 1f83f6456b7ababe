# expect: none
# tensorflow: ok
# shape: DDPG's actor loss: the actor runs before the tape, the tape watches the actions and asks dQ/da (the sources are the actions, not the actor's variables), then the actor is trained with that gradient (after tensorflow/agents tf_agents/agents/ddpg/ddpg_agent.py `dqdas = tape.gradient([q_values], actions)`)
import numpy as np
import tensorflow as tf
from tensorflow import keras

actor_network = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="tanh")])
critic_network = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)])
observation = np.random.rand(8, 3).astype("float32")

actions = actor_network(observation)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(actions)
    q_values = critic_network(tf.concat([observation, actions], axis=1))
    actions = tf.nest.flatten(actions)
dqdas = tape.gradient([q_values], actions)

with tf.GradientTape() as actor_tape:
    new_actions = actor_network(observation)
    actor_loss = tf.reduce_mean(-tf.stop_gradient(dqdas[0]) * new_actions)
actor_grads = actor_tape.gradient(actor_loss, actor_network.trainable_variables)
