# expect: none
# tensorflow: ok
# shape: a lambda called where it is written and a module function, both reading module variables (`(lambda: v1 * v2)()`): arithmetic on two variables is a tensor, not a new variable, so the calls are no variable factories (generator family, issue 21's table)
import tensorflow as tf

v1 = tf.Variable(1.0)
v2 = tf.Variable(2.0)


def product():
    return v1 * v2


with tf.GradientTape() as tape:
    loss = (lambda: v1 * v2)() + product()
grads = tape.gradient(loss, [v1, v2])
