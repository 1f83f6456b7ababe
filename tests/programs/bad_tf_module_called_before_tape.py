# expect: GG301@18
# tensorflow: none
# shape: a `tf.Module` layer (variables set in `__init__`, forward pass in `__call__`) is called before the `with tf.GradientTape()` block; the loss inside the block uses the finished output, so every gradient of `layer.trainable_variables` is None
# family: 3
import tensorflow as tf


class Linear(tf.Module):
    def __init__(self, units):
        self.w = tf.Variable(tf.random.normal([3, units]))
        self.b = tf.Variable(tf.zeros([units]))

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


layer = Linear(2)
outputs = layer(tf.ones([4, 3]))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.square(outputs))
grads = tape.gradient(loss, layer.trainable_variables)
