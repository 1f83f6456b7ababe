# expect: none
# tensorflow: ok
# shape: the minimize program with `v + 1.` moved into the loss closure, so the optimizer's tape records the read of `v` each time it calls `loss()`; the gradient of `v` is 2
# source: https://github.com/tensorflow/tensorflow/issues/15682
# family: 7
# heldout: 2
import tensorflow as tf
import tf_keras

v = tf.Variable(1.0, name="v", trainable=True)


def loss():
    return 2.0 * (v + 1.0)


optimizer = tf_keras.optimizers.SGD(0.1)
optimizer.minimize(loss, var_list=[v])
