# expect: GG301@13
# tensorflow: raises ValueError
# fixed: nofix
# shape: `cost = tf.reduce_mean(tf.square(model(x) - y))` is computed once, then `optimizer.minimize(lambda: cost, var_list=[w])` on a `tf.compat.v1.train` optimizer: the lambda only returns the finished tensor, the optimizer's own tape sees no variable read and raises "No gradients provided for any variable"
# family: 7
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.random.normal([3, 1]))
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
cost = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
for step in range(3):
    optimizer.minimize(lambda: cost, var_list=[w])
