# expect: GG202@32
# tensorflow: ok
# fixed: differs
# shape: the keras.io actor-critic CartPole example: one model with an actor head and a critic head, and the actor loss `-log_prob * diff` with `diff = ret - value`, where `value` is the critic's output from the same tape; the actor loss then also trains the critic (and the shared layer) to move `value`, which is not the policy gradient; every gradient exists and training is silently different (the thread: use `diff = ret - tf.stop_gradient(value)`)
# source: https://github.com/keras-team/keras-io/issues/194
# family: 5
import numpy as np
import tensorflow as tf
from tensorflow import keras

num_inputs, num_actions = 4, 2
inputs = keras.Input((num_inputs,))
common = keras.layers.Dense(16, activation="relu")(inputs)
action = keras.layers.Dense(num_actions, activation="softmax")(common)
critic = keras.layers.Dense(1)(common)
model = keras.Model(inputs, [action, critic])
optimizer = keras.optimizers.Adam(0.01)
huber_loss = keras.losses.Huber()

states = np.random.rand(5, num_inputs).astype("float32")
taken = np.random.randint(0, num_actions, size=5)
returns = np.random.randn(5).astype("float32")

with tf.GradientTape() as tape:
    action_probs_history, critic_value_history = [], []
    for t in range(5):
        action_probs, critic_value = model(states[t:t + 1])
        critic_value_history.append(critic_value[0, 0])
        action_probs_history.append(tf.math.log(action_probs[0, taken[t]]))
    actor_losses, critic_losses = [], []
    for log_prob, value, ret in zip(action_probs_history, critic_value_history, returns):
        diff = ret - value
        actor_losses.append(-log_prob * diff)
        critic_losses.append(huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0)))
    loss_value = sum(actor_losses) + sum(critic_losses)
grads = tape.gradient(loss_value, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
