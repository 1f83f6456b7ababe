# expect: none
# tensorflow: ok
# shape: the same `training_step(data, par)` without `@tf.function` (the thread: it works in eager mode): the loop over `data` runs in Python, each batch's `d * par` is recorded by the tape around the loop, and the gradient for `par` is there
# source: https://github.com/tensorflow/tensorflow/issues/41594
# family: 7
import tensorflow as tf

data = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=tf.double))
par = tf.Variable([0.5, -0.5], dtype=tf.double)


def training_step(data, par):
    loss = tf.constant(0, dtype=tf.double)
    with tf.GradientTape() as tape:
        for d in data:
            loss += tf.reduce_sum(tf.square(d * par - 1.0))
    return tape.gradient(loss, par)


print(training_step(data, par))
