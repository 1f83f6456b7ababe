# expect: GG101@19
# tensorflow: none
# fixed: ok
# shape: a function of this file calls the function it is given (`def solve(fn, state): ... fn(state)`), and the lambda handed to it reads `rate.numpy()`: the loss computed by the call inside the tape gets no gradient for `rate`. The lambda given for the parameter was not followed, and the finding was "the loss never uses `rate`" instead of the `.numpy()` that cuts it
# family: 2
import tensorflow as tf

rate = tf.Variable(0.5)
optimizer = tf.keras.optimizers.SGD(0.1)


def solve(fn, state):
    for _ in range(3):
        state = state + 0.1 * fn(state)
    return state


with tf.GradientTape() as tape:
    loss = tf.square(solve(lambda s: rate.numpy() * s, tf.constant(1.0)) - 2.0)
grads = tape.gradient(loss, [rate])
optimizer.apply_gradients(zip(grads, [rate]))
