# expect: GG406@15
# tensorflow: none
# fixed: nofix
# shape: the loss is folded over a tf.data.Dataset with `ds.reduce(0., lambda x, y: x + (y - u) ** 2)` inside the tape; the reduction runs as a dataset op whose body the tape does not record, so the gradient for the variable `u` is None, while a Python list over `ds.as_numpy_iterator()` gives the right gradient
# source: https://github.com/tensorflow/tensorflow/issues/36306
# family: 7
import tensorflow as tf

data = tf.range(10, dtype=tf.float32)
ds = tf.data.Dataset.from_tensor_slices(data)
u = tf.Variable(1.0, dtype=tf.float32)

with tf.GradientTape(persistent=True) as g:
    loss2 = tf.reduce_sum([(y - u) ** 2 for y in ds.as_numpy_iterator()])
    loss1 = ds.reduce(tf.constant(0.0), lambda x, y: x + (y - u) ** 2)
print(g.gradient(loss2, u))
print(g.gradient(loss1, u))
