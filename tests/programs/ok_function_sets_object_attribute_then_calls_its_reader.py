# expect: none
# tensorflow: ok
# shape: a function sets a module object's attribute from its argument (`variational.parameters -= ...`) and then calls a function that reads the object. The engine's values are not shared objects: the write reached the caller after the call but not the function called inside it, a false GG302 (edward2's Companion notebook, cell 36, never run before); a function called from a frame that changed an object around it now reads it as changed
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
        variational.parameters -= 0.1 * tf.reduce_sum(precond, axis=1)
    return loss(x)


precond = tf.Variable(tf.random.normal([2, 2]))
with tf.GradientTape() as tape:
    loss_value = train(precond)
grads = tape.gradient(loss_value, [precond])
