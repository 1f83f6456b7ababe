# expect: none
# tensorflow: ok
# shape: the fix of the `tf.Module` Dense layer trained by `tf.compat.v1.train.AdamOptimizer(0.4).minimize(loss_fn, var_list=test.trainable_variables)`: `loss_fn` calls `test(...)` itself, so the tape `minimize` opens around it records the forward pass
# source: https://github.com/tensorflow/tensorflow/issues/51489
# family: 7
import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, input_dim, output_size, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([input_dim, output_size]), name="w")
        self.b = tf.Variable(tf.zeros([output_size]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


test = Dense(2, 4)


def loss_fn():
    y_true = tf.ones([1, 4])
    output = test([[7.0, 3.0]])
    return tf.reduce_mean(tf.square(y_true - output))


for i in range(2):
    train_op = tf.compat.v1.train.AdamOptimizer(0.4).minimize(loss_fn, var_list=test.trainable_variables)
