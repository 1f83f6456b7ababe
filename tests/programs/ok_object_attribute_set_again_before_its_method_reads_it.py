# expect: none
# tensorflow: ok
# shape: a plain object's attribute is set again from a variable (`variational.parameters -= ...`), and its `__call__`, run next, reads `self.parameters`: the object's fields were those of `__init__`, a false GG302 (the shape of edward2's Companion notebook, never run before)
# family: 2
import tensorflow as tf


class Variational:
    def __init__(self):
        self.parameters = tf.random.normal([2])

    def __call__(self, x):
        return tf.sigmoid(self.parameters[0]) * x


variational = Variational()
x = tf.ones([5])
precond = tf.Variable(tf.random.normal([2, 2]))
with tf.GradientTape() as tape:
    variational.parameters -= 0.1 * tf.reduce_sum(precond, axis=1)
    loss_value = tf.reduce_sum(variational(x))
grads = tape.gradient(loss_value, [precond])
