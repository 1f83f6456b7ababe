# expect: none
# tensorflow: ok
# shape: a `tf.Module` subclass defined inside the function that trains, whose `__call__` multiplies by the function's variable `w` (a closure); the loss computed by calling the module inside the tape reaches `w`. The module's output carried its own variables and its input only: a false GG302
# family: 6
import tensorflow as tf


def train():
    w = tf.Variable(1.5)
    optimizer = tf.keras.optimizers.SGD(0.1)

    class Scale(tf.Module):
        def __call__(self, x):
            return x * w

    scale = Scale()
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        loss = tf.square(scale(x) - 1.0)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


train()
