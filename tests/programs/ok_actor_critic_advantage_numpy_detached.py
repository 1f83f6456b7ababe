# expect: none
# tensorflow: ok
# shape: Keras "Actor Critic Method" CartPole example with the advantage taken through value.numpy() (intentionally detached); np.random.choice(p=np.squeeze(probs)) inside the tape; actor and critic heads share a body
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

gamma = 0.99
eps = np.finfo(np.float32).eps.item()
num_inputs, num_actions, num_hidden = 4, 2, 16

inputs = layers.Input(shape=(num_inputs,))
common = layers.Dense(num_hidden, activation="relu")(inputs)
action = layers.Dense(num_actions, activation="softmax")(common)
critic = layers.Dense(1)(common)
model = keras.Model(inputs=inputs, outputs=[action, critic])

optimizer = keras.optimizers.Adam(learning_rate=0.01)
huber_loss = keras.losses.Huber()
action_probs_history, critic_value_history, rewards_history = [], [], []

state = np.random.uniform(-0.05, 0.05, size=num_inputs).astype(np.float32)
with tf.GradientTape() as tape:
    for timestep in range(8):
        state = tf.convert_to_tensor(state)
        state = tf.expand_dims(state, 0)
        action_probs, critic_value = model(state)
        critic_value_history.append(critic_value[0, 0])
        action = np.random.choice(num_actions, p=np.squeeze(action_probs))
        action_probs_history.append(tf.math.log(action_probs[0, action]))
        state = np.random.uniform(-0.05, 0.05, size=num_inputs).astype(np.float32)
        rewards_history.append(1.0)

    returns = []
    discounted_sum = 0
    for r in rewards_history[::-1]:
        discounted_sum = r + gamma * discounted_sum
        returns.insert(0, discounted_sum)
    returns = np.array(returns)
    returns = (returns - np.mean(returns)) / (np.std(returns) + eps)
    returns = returns.tolist()

    actor_losses, critic_losses = [], []
    for log_prob, value, ret in zip(action_probs_history, critic_value_history, returns):
        advantage = ret - value.numpy()
        actor_losses.append(-log_prob * advantage)
        critic_losses.append(huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0)))
    loss_value = sum(actor_losses) + sum(critic_losses)

grads = tape.gradient(loss_value, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("episode loss", float(loss_value))
