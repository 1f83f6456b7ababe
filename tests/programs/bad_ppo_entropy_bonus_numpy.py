# expect: GG102@26
# tensorflow: ok
# fixed: differs
# shape: a policy-gradient loss with an entropy bonus computed with numpy from the policy's probabilities inside the tape: the policy term trains the network, the bonus is a constant that adds nothing to the gradient (training runs, exploration is silently lost)
# family: 5
import numpy as np
import tensorflow as tf
import keras

policy = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"),
                           keras.layers.Dense(2, activation="softmax")])
optimizer = keras.optimizers.Adam(1e-3)
states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, 2, size=8)
advantages = np.random.randn(8).astype("float32")
ENTROPY_COEF = 0.01


def entropy(probs):
    return -tf.reduce_sum(probs * tf.math.log(probs + 1e-8), axis=1)


with tf.GradientTape() as tape:
    probs = policy(states, training=True)
    log_probs = tf.math.log(tf.reduce_sum(probs * tf.one_hot(actions, 2), axis=1) + 1e-8)
    bonus = np.mean(entropy(probs))
    loss = -tf.reduce_mean(log_probs * advantages) - ENTROPY_COEF * bonus
gradients = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(gradients, policy.trainable_variables))
