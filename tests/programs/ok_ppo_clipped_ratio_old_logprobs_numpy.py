# expect: none
# tensorflow: ok
# shape: PPO clipped objective: old log-probs and advantages as numpy arrays computed before the tape, tf.clip_by_value/tf.minimum on the ratio, entropy bonus (after the Keras PPO example)
import numpy as np
import tensorflow as tf
from tensorflow import keras

num_actions = 2
clip_ratio = 0.2
actor = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="tanh"), keras.layers.Dense(num_actions)])
policy_optimizer = keras.optimizers.Adam(learning_rate=3e-4)


def logprobabilities(logits, a):
    logprobabilities_all = tf.nn.log_softmax(logits)
    return tf.reduce_sum(tf.one_hot(a, num_actions) * logprobabilities_all, axis=1)


observation_buffer = np.random.randn(8, 4).astype(np.float32)
action_buffer = np.random.randint(0, num_actions, size=8).astype(np.int32)
advantage_buffer = np.random.randn(8).astype(np.float32)
advantage_buffer = (advantage_buffer - np.mean(advantage_buffer)) / np.std(advantage_buffer)
logprobability_buffer = logprobabilities(actor(observation_buffer), action_buffer).numpy()


def train_policy(observation_buffer, action_buffer, logprobability_buffer, advantage_buffer):
    with tf.GradientTape() as tape:
        logits = actor(observation_buffer)
        ratio = tf.exp(logprobabilities(logits, action_buffer) - logprobability_buffer)
        clipped = tf.clip_by_value(ratio, 1 - clip_ratio, 1 + clip_ratio) * advantage_buffer
        entropy = -tf.reduce_mean(tf.reduce_sum(tf.nn.softmax(logits) * tf.nn.log_softmax(logits), axis=1))
        policy_loss = -tf.reduce_mean(tf.minimum(ratio * advantage_buffer, clipped)) - 0.01 * entropy
    policy_grads = tape.gradient(policy_loss, actor.trainable_variables)
    policy_optimizer.apply_gradients(zip(policy_grads, actor.trainable_variables))
    kl = tf.reduce_mean(logprobability_buffer - logprobabilities(actor(observation_buffer), action_buffer))
    return tf.reduce_sum(kl)


for _ in range(2):
    kl = train_policy(observation_buffer, action_buffer, logprobability_buffer, advantage_buffer)
    if kl > 1.5 * 0.01:
        break
print("kl", float(kl))
