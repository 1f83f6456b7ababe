# expect: GG306@21
# tensorflow: none
# fixed: nofix
# shape: the product of two variables created from Python ints, `params = [tf.Variable(1), tf.Variable(2)]`, taken under a tape through a helper `forward(a, b)`; the variables are int32, which the tape never watches, so both gradients are None with no error (the thread asked TensorFlow to say so: "gradient calculation supports only float types"; TF 2.21 still returns `[None, None]` without raising)
# source: https://github.com/tensorflow/tensorflow/issues/26143
# family: 1
# heldout: 2
import tensorflow as tf


def forward(a, b):
    """f = a * b"""
    return a * b


params = [tf.Variable(1), tf.Variable(2)]

with tf.GradientTape() as tape:
    result = forward(*params)

grads = tape.gradient(result, params)
