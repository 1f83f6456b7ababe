# expect: GG308@15
# tensorflow: raises RuntimeError
# fixed: nofix
# shape: eager TensorFlow 2 with a TF1 optimizer: `minimize` is given the loss tensor computed before, which eager mode refuses (after the TF1-to-TF2 migration reports "`loss` passed to Optimizer.compute_gradients should be a function when eager execution is enabled")
import numpy as np
import tensorflow as tf

x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
w = tf.Variable(np.random.rand(3, 1).astype("float32"))
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)

loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
# A tensor, computed once; the eager way is `minimize(lambda: ..., var_list=[w])`.
optimizer.minimize(loss, var_list=[w])
