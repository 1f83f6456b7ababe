# expect: none
# tensorflow: ok
# shape: the same variable on both sides of an operator (`w * w`, `v * v`, `x * x * x`) depends on it twice, not never (after tensorflow/docs site/en/r1/guide/eager.ipynb "loss = w * w" and site/en/guide/advanced_autodiff.ipynb "clip_gradients(v * v)")
import tensorflow as tf

w = tf.Variable([[1.0]])
with tf.GradientTape() as tape:
    loss = w * w
grad = tape.gradient(loss, w)

v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    cube = v * v * v + (v + v)
dv = tape.gradient(cube, v)

x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    error = x - 1.0
    squared = tf.reduce_sum(error * error)
dx = tape.gradient(squared, [x])
