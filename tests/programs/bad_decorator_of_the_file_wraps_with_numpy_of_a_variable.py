# expect: GG101@14
# tensorflow: none
# fixed: ok
# shape: a decorator of this file returns a wrapper that multiplies the decorated function's result by `w.numpy()`: the loss computed by calling the decorated function inside the tape gets no gradient for `w`. The call did not run the wrapper, and the finding was "the loss never uses `w`" instead of the `.numpy()` that cuts it
# family: 2
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.1)


def with_scale(fn):
    def wrapped(x):
        return fn(x) * w.numpy()
    return wrapped


@with_scale
def identity(x):
    return x


with tf.GradientTape() as tape:
    loss = tf.square(identity(tf.constant(2.0)) - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
