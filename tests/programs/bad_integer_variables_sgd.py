# expect: GG306@22 GG306@22
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/43845
# shape: linear-regression variables created from Python ints (int32 tf.Variable); the optimizer's tape cannot differentiate integer variables, so GradientDescentOptimizer.minimize finds no gradients
# heldout: 9
import tensorflow as tf

x_train = tf.constant([1, 2, 3, 4])
y_train = tf.constant([3, 5, 7, 9])

W = tf.Variable(1, name="weight")
b = tf.Variable(0, name="bias")


def cost():
    hypothesis = W * x_train + b
    return tf.reduce_mean(tf.square(hypothesis - y_train))


optimizer = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=0.01)
optimizer.minimize(cost, var_list=[W, b])
