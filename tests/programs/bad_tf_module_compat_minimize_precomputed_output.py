# expect: GG301@21
# tensorflow: none
# fixed: nofix
# shape: a `tf.Module` Dense layer is called once outside any tape (`output = test(...)`), and `loss_fn` closes over that finished output; `tf.compat.v1.train.AdamOptimizer(0.4).minimize(loss_fn, var_list=test.trainable_variables)` runs the closure under its own tape, sees no variable read and raises "No gradients provided for any variable"
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
output = test([[7.0, 3.0]])


def loss_fn():
    y_true = tf.ones([1, 4])
    return tf.reduce_mean(tf.square(y_true - output))


for i in range(2):
    train_op = tf.compat.v1.train.AdamOptimizer(0.4).minimize(loss_fn, var_list=test.trainable_variables)
