# expect: GG308@17
# tensorflow: raises AttributeError
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/28068
# shape: multi-armed-bandit weights; the loss log(weight of the argmax arm) * reward is computed once as a tensor and handed to optimizer.minimize, which (Keras 3) does not exist and (Keras 2) needs a callable, so the weights are never trained
# heldout: 9
import numpy as np
import tensorflow as tf
import keras

weights = tf.Variable(np.ones(5), dtype=tf.float64)
chosen_action = tf.argmax(weights, 0)
reward = tf.constant([[1.0]], dtype=tf.float64)

resp_weight = tf.gather(weights, chosen_action)
loss = -tf.math.log(resp_weight) * reward
optimizer = keras.optimizers.SGD(learning_rate=0.001).minimize(loss, var_list=[weights])
