# expect: none
# tensorflow: ok
# shape: bidirectional residual TD: the residual term trains the critic through its value of the next states on purpose and holds the current value constant with `tf.stop_gradient` instead (after keiohta/tf2rl tf2rl/algos/bi_res_ddpg.py `_compute_td_error_body`)
import numpy as np
import tensorflow as tf
from tensorflow import keras

critic = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
critic_target = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8, 1).astype("float32")
discount = 0.99

with tf.GradientTape() as tape:
    target_q = tf.stop_gradient(rewards + discount * critic_target(next_states))
    td_errors1 = target_q - critic(states)
    target_q = rewards + discount * critic(next_states)
    current_q = tf.stop_gradient(critic_target(states))
    td_errors2 = target_q - current_q
    loss = tf.reduce_mean(tf.square(td_errors1)) + 0.05 * tf.reduce_mean(tf.square(td_errors2))
grads = tape.gradient(loss, critic.trainable_variables)
