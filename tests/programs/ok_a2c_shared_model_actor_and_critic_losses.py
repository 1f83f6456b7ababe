# expect: none
# tensorflow: ok
# shape: the same A2C network from one factory with the usual loss: the actor term from the action output plus the critic's Huber loss on its value output, so both heads (and the common layer) get their gradients
# source: https://github.com/tensorflow/tensorflow/issues/48547
# family: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras


def create_a2c(input_shape, action_space):
    inputs = keras.Input(input_shape)
    common = keras.layers.Dense(16, activation="relu")(inputs)
    action = keras.layers.Dense(action_space, activation="softmax")(common)
    critic = keras.layers.Dense(1)(common)
    return keras.Model(inputs, [action, critic])


model = create_a2c((4,), 2)
optimizer = keras.optimizers.Adam(1e-3)
states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, 2, size=8)
returns = np.random.rand(8).astype("float32")
values = np.random.rand(8).astype("float32")

with tf.GradientTape() as tape:
    action_probs, critic_value = model(states)
    picked = tf.reduce_sum(action_probs * tf.one_hot(actions, 2), axis=1)
    advantage = returns - tf.stop_gradient(tf.squeeze(critic_value, axis=1))
    actor_loss = -tf.reduce_mean(tf.math.log(picked + 1e-8) * advantage)
    critic_loss = keras.losses.Huber()(tf.expand_dims(returns, 1), critic_value)
    loss = actor_loss + critic_loss
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
