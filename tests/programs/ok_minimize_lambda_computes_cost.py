# expect: none
# tensorflow: ok
# shape: the same linear model trained by `optimizer.minimize(lambda: ..., var_list=[w])` on a `tf.compat.v1.train` optimizer, the lambda computing the cost from `w` itself each time it is called
# family: 7
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.random.normal([3, 1]))
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
for step in range(3):
    optimizer.minimize(lambda: tf.reduce_mean(tf.square(tf.matmul(x, w) - y)), var_list=[w])
