# expect: GG406@17
# tensorflow: none
# fixed: nofix
# shape: a `@tf.function` `training_step(data, par)` opens its own `tf.GradientTape` and accumulates a float64 `loss` over `for d in data:`; AutoGraph makes the loop a `data.reduce` traced into the dataset's graph, so even a tape opened inside the function, around the loop, records none of the reads of `par` and `tape.gradient(loss, par)` is None (the loop body is rebuilt: the thread shows the function down to `for d in data:` and says the same code works eagerly)
# source: https://github.com/tensorflow/tensorflow/issues/41594
# family: 7
import tensorflow as tf

data = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=tf.double))
par = tf.Variable([0.5, -0.5], dtype=tf.double)


@tf.function
def training_step(data, par):
    loss = tf.constant(0, dtype=tf.double)
    with tf.GradientTape() as tape:
        for d in data:
            loss += tf.reduce_sum(tf.square(d * par - 1.0))
    return tape.gradient(loss, par)


print(training_step(data, par))  # None
