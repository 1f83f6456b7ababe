# expect: none
# tensorflow: ok
# shape: the helper product of the integer-variables program with the variables created from floats, `tf.Variable(1.0)` and `tf.Variable(2.0)` (the thread: "will output correct gradients when the tf.Variables are a float type"); both gradients exist
# source: https://github.com/tensorflow/tensorflow/issues/26143
# family: 1
# heldout: 2
import tensorflow as tf


def forward(a, b):
    """f = a * b"""
    return a * b


params = [tf.Variable(1.0), tf.Variable(2.0)]

with tf.GradientTape() as tape:
    result = forward(*params)

grads = tape.gradient(result, params)
