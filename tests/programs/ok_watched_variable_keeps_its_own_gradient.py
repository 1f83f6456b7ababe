# expect: none
# tensorflow: ok
# shape: with `watch_accessed_variables=False`, a variable the tape watches explicitly is still that variable: its gradient, asked in a dict of sources, exists (after tensorflow/docs site/en/guide/autodiff.ipynb "Controlling what the tape watches")
import tensorflow as tf

x0 = tf.Variable(0.0)
x1 = tf.Variable(10.0)

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x1)
    y0 = tf.math.sin(x0)
    y1 = tf.nn.softplus(x1)
    ys = tf.reduce_sum(y0 + y1)
grad = tape.gradient(ys, {"x1": x1})
