# expect: none
# tensorflow: ok
# shape: SAC with a shared encoder: the TD target (target critic on the encoded next observation, the actor's next action) is wrapped in `tf.stop_gradient`, and the critic loss trains the critic and the encoder, which still get their gradient through the prediction (after keiohta/tf2rl tf2rl/algos/sac_ae.py)
import numpy as np
import tensorflow as tf
from tensorflow import keras

encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="tanh")])
encoder_target = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="tanh")])
actor = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, activation="tanh")])
qf = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)])
qf_target = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)])
obses = np.random.rand(8, 6).astype("float32")
next_obses = np.random.rand(8, 6).astype("float32")
actions = np.random.rand(8, 2).astype("float32")
rewards = np.random.rand(8, 1).astype("float32")
not_dones = np.ones((8, 1), "float32")
discount, alpha = 0.99, 0.1

with tf.GradientTape() as tape:
    next_features = encoder_target(next_obses)
    next_actions = actor(encoder(next_obses))
    next_q = qf_target(tf.concat([next_features, next_actions], axis=1))
    target_q = tf.stop_gradient(rewards + not_dones * discount * (next_q - alpha))
    current_q = qf(tf.concat([encoder(obses), actions], axis=1))
    td_loss = tf.reduce_mean(tf.square(target_q - current_q))
grads = tape.gradient(td_loss, qf.trainable_variables + encoder.trainable_variables)
