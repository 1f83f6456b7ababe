# expect: GG406@17
# tensorflow: none
# fixed: nofix
# shape: the thread's loop form ("the same behavior is observed when using `for x in ds:` inside of a `@tf.function`"): the squared error to the variable `u` summed over `for x in ds:` in a `@tf.function`, called under the tape; AutoGraph runs the loop as `ds.reduce`, the reads of `u` stay in the dataset's graph and `g.gradient(loss, u)` is None
# source: https://github.com/tensorflow/tensorflow/issues/36306
# family: 7
import tensorflow as tf

data = tf.range(10, dtype=tf.float32)
ds = tf.data.Dataset.from_tensor_slices(data)
u = tf.Variable(1.0, dtype=tf.float32)


@tf.function
def squared_error():
    total = tf.constant(0.0)
    for x in ds:
        total += (x - u) ** 2
    return total


with tf.GradientTape() as g:
    loss = squared_error()
print(g.gradient(loss, u))  # None
