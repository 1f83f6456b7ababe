# expect: GG301@22
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/51489
# shape: tf.Module dense layer called once at module level; the zero-argument loss_fn passed to AdamOptimizer.minimize closes over that precomputed output, so the optimizer's tape records no use of w and b
# heldout: 9
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, input_dim, output_size, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([input_dim, output_size]), name="w")
        self.b = tf.Variable(tf.zeros([output_size]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


test = Dense(2, 4)
output = test([[7.0, 3.0]])


def loss_fn():
    y_true = tf.ones([1, 4])
    return tf.reduce_mean(tf.square(y_true - output))


for i in range(2):
    train_op = tf.compat.v1.train.AdamOptimizer(0.4).minimize(loss_fn, var_list=test.trainable_variables)
