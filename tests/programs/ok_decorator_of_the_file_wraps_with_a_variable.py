# expect: none
# tensorflow: ok
# shape: a decorator of this file returns a wrapper that multiplies the decorated function's result by the variable `w` (`def with_scale(fn): def wrapped(x): return fn(x) * w; return wrapped`); the loss computed by calling the decorated function inside the tape reaches `w`. A call of a decorated function was the function's own summary, without its wrapper: a false GG302
# family: 6
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.1)


def with_scale(fn):
    def wrapped(x):
        return fn(x) * w
    return wrapped


@with_scale
def identity(x):
    return x


with tf.GradientTape() as tape:
    loss = tf.square(identity(tf.constant(2.0)) - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
