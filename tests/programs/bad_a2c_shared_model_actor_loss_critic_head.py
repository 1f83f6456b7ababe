# expect: GG302@33
# tensorflow: none
# fixed: nofix
# shape: an A2C network from one factory, `create_a2c`, with a common layer, an actor head and a critic head; the training step's loss is built from the actor output only and the tape is asked for every variable of the two-output model, so the critic head (`dense_2/kernel`, `dense_2/bias`) gets None ("Gradients do not exist for variables ['dense_2/kernel:0', 'dense_2/bias:0']")
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
    advantage = returns - values
    actor_loss = -tf.reduce_mean(tf.math.log(picked + 1e-8) * advantage)
    loss = actor_loss
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
