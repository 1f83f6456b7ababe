# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/43845
# shape: same regression with float data and float32 variables, so the optimizer can differentiate the cost
# heldout: 9
import tensorflow as tf

x_train = tf.constant([1.0, 2.0, 3.0, 4.0])
y_train = tf.constant([3.0, 5.0, 7.0, 9.0])

W = tf.Variable(1.0, name="weight")
b = tf.Variable(0.0, name="bias")


def cost():
    hypothesis = W * x_train + b
    return tf.reduce_mean(tf.square(hypothesis - y_train))


optimizer = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=0.01)
optimizer.minimize(cost, var_list=[W, b])
