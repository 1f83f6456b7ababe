# expect: none
# tensorflow: ok
# shape: a Keras layer class defined inside the function that trains, whose `call` multiplies by the function's variable `w` (a closure, not a weight of the layer); the loss computed by calling the layer inside the tape reaches `w`. A layer's output carried its own weights and its input only, so "the loss never uses `w`" was a false GG302 (also with the class and `w` at module level, or a `tf.Module` with `__call__`)
# family: 6
import keras
import tensorflow as tf


def train():
    w = tf.Variable(1.5)
    optimizer = keras.optimizers.SGD(0.1)

    class Scale(keras.layers.Layer):
        def call(self, x):
            return x * w

    scale = Scale()
    x = tf.ones((2, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(scale(x) - 1.0))
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


train()
