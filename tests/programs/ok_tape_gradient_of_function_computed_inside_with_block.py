# expect: none
# tensorflow: ok
# shape: the helper `grad(x)` of the after-the-block program with `out = f(x)` computed inside the `with` block and `t.gradient(out, x)` after it: the tape records the square and the gradient is 18
# source: https://github.com/tensorflow/tensorflow/issues/27660
# family: 2
# heldout: 2
import tensorflow as tf


def f(x):
    return x ** 2


def grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        out = f(x)
    return t.gradient(out, x)


x = tf.convert_to_tensor(9.0)

grad(x)
