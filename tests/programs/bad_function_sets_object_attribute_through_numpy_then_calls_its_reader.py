# expect: GG101@33
# tensorflow: none
# fixed: nofix
# shape: the near miss of ok_function_sets_object_attribute_then_calls_its_reader.py: the value written into the module object's attribute went through `.numpy()`, so the reader called next gives the loss no gradient for `precond` (before, the write was not seen there and the step was silent)
# family: 2
import tensorflow as tf


class Variational:
    def __init__(self):
        self.parameters = tf.random.normal([2])

    def __call__(self, x):
        return tf.sigmoid(self.parameters[0]) * x


variational = Variational()
x = tf.ones([5])


def loss(x):
    return tf.reduce_sum(variational(x))


def train(precond):
    for _ in range(2):
        variational.parameters -= 0.1 * tf.reduce_sum(precond, axis=1).numpy()
    return loss(x)


precond = tf.Variable(tf.random.normal([2, 2]))
with tf.GradientTape() as tape:
    loss_value = train(precond)
grads = tape.gradient(loss_value, [precond])
