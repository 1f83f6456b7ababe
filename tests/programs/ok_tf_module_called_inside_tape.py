# expect: none
# tensorflow: ok
# shape: the `tf.Module` layer of the TensorFlow guide ("Introduction to modules"), called inside the tape: both of `layer.trainable_variables` get their gradient; `.numpy()` of the loss is only printed
# family: 3
import tensorflow as tf


class Linear(tf.Module):
    def __init__(self, units):
        self.w = tf.Variable(tf.random.normal([3, units]))
        self.b = tf.Variable(tf.zeros([units]))

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


layer = Linear(2)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.square(layer(tf.ones([4, 3]))))
print(loss.numpy())
grads = tape.gradient(loss, layer.trainable_variables)
