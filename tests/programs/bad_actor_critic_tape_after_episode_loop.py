# expect: GG301@24
# tensorflow: none
# fixed: nofix
# shape: the keras.io actor-critic CartPole example with the tape moved "near the place it is used": the episode loop runs `action_probs, critic_value = model(state)` step by step and collects the histories, and only afterwards `with tf.GradientTape() as tape:` opens around the loss; the forward passes were never recorded, so "No gradients provided for any variable"
# source: https://github.com/keras-team/keras-io/issues/406
# family: 7
import numpy as np
import tensorflow as tf
from tensorflow import keras

num_inputs, num_actions, gamma = 4, 2, 0.99
inputs = keras.Input((num_inputs,))
common = keras.layers.Dense(16, activation="relu")(inputs)
action = keras.layers.Dense(num_actions, activation="softmax")(common)
critic = keras.layers.Dense(1)(common)
model = keras.Model(inputs, [action, critic])
optimizer = keras.optimizers.Adam(0.01)
huber_loss = keras.losses.Huber()

action_probs_history, critic_value_history, rewards_history = [], [], []
state = np.random.rand(num_inputs).astype("float32")
for timestep in range(5):
    state = tf.expand_dims(tf.convert_to_tensor(state), 0)
    action_probs, critic_value = model(state)
    critic_value_history.append(critic_value[0, 0])
    act = np.random.choice(num_actions, p=np.squeeze(action_probs))
    action_probs_history.append(tf.math.log(action_probs[0, act]))
    state = np.random.rand(num_inputs).astype("float32")
    rewards_history.append(1.0)

returns = np.cumsum(rewards_history[::-1])[::-1].astype("float32")
returns = (returns - np.mean(returns)) / (np.std(returns) + 1e-8)
with tf.GradientTape() as tape:
    actor_losses, critic_losses = [], []
    for log_prob, value, ret in zip(action_probs_history, critic_value_history, returns):
        actor_losses.append(-log_prob * (ret - value))
        critic_losses.append(huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0)))
    loss_value = sum(actor_losses) + sum(critic_losses)
grads = tape.gradient(loss_value, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
