# expect: none
# tensorflow: ok
# shape: a function sets a module object's attribute on one branch and calls a reader of the object on the other; the reader on the second branch reads the object as it was. The branch run apart from the one that set it crashed the analysis (KeyError; seen in tensorflow/model-optimization's test utilities, which Keras's own backend reaches through jedi)
# family: 2
import tensorflow as tf


class Holder:
    def __init__(self):
        self.scale = tf.constant(1.0)


holder = Holder()


def read(x):
    return x * holder.scale


def step(x, fresh):
    if fresh:
        holder.scale = tf.constant(2.0)
        return x
    else:
        return read(x)


w = tf.Variable(3.0)
with tf.GradientTape() as tape:
    loss = step(w, False)
grads = tape.gradient(loss, [w])
