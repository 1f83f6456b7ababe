# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/28068
# shape: same bandit; the loss is a zero-argument callable evaluated under a GradientTape and the gradients are applied with apply_gradients
# heldout: 9
import numpy as np
import tensorflow as tf
import keras

weights = tf.Variable(np.ones(5), dtype=tf.float64)
chosen_action = tf.argmax(weights, 0)
reward = tf.constant([[1.0]], dtype=tf.float64)


def loss():
    resp_weight = tf.gather(weights, chosen_action)
    return -tf.math.log(resp_weight) * reward


optimizer = keras.optimizers.SGD(learning_rate=0.001)
with tf.GradientTape() as tape:
    loss_value = loss()
grads = tape.gradient(loss_value, [weights])
optimizer.apply_gradients(zip(grads, [weights]))
