# expect: GG301@19
# tensorflow: none
# fixed: nofix
# shape: a helper `grad(x)` opens a tape, watches `x`, and leaves the computation commented out of the `with` block: the target is computed in the argument of `t.gradient(f(x), x)` after the block has closed, so the tape never recorded `f(x)` and the gradient is None (the poster's own fix: compute `out = f(x)` inside the block; "it's a scoping problem")
# source: https://github.com/tensorflow/tensorflow/issues/27660
# family: 2
# heldout: 2
import tensorflow as tf


def f(x):
    return x ** 2


def grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        # out = f(x)
    return t.gradient(f(x), x)


x = tf.convert_to_tensor(9.0)

grad(x)
