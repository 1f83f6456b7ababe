# expect: none
# tensorflow: ok
# shape: the same policy trained with REINFORCE: actions are sampled with tf.random.categorical (no gradient, and none needed) and only select the log-probabilities, which come from the logits and carry the gradient
# family: 4
import numpy as np
import tensorflow as tf
import keras

n_actions = 4
policy = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions),
])
optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(8, 6).astype("float32")
returns = np.random.rand(8).astype("float32")

with tf.GradientTape() as tape:
    logits = policy(states, training=True)
    actions = tf.squeeze(tf.random.categorical(logits, 1), axis=1)
    log_probs = tf.nn.log_softmax(logits)
    chosen = tf.reduce_sum(log_probs * tf.one_hot(actions, n_actions), axis=1)
    loss = -tf.reduce_mean(chosen * returns)
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
