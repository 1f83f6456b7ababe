# expect: GG406@15
# tensorflow: none
# fixed: nofix
# shape: the training step of tensorflow#41594 (its own tape around `for d in data:`) made traced by `traced_step = tf.function(training_step)` rather than a decorator, and called with the dataset: AutoGraph still runs the loop as `data.reduce`, so `tape.gradient(loss, par)` is None
# family: 7
import tensorflow as tf

data = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.double))
par = tf.Variable([0.5, -0.5], dtype=tf.double)


def training_step(data, par):
    loss = tf.constant(0, dtype=tf.double)
    with tf.GradientTape() as tape:
        for d in data:
            loss += tf.reduce_sum(tf.square(d * par - 1.0))
    return tape.gradient(loss, par)


traced_step = tf.function(training_step)
print(traced_step(data, par))  # None
