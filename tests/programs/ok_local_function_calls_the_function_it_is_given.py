# expect: none
# tensorflow: ok
# shape: a function of this file calls the function it is given (`def solve(fn, state): ... fn(state)`), and the lambda handed to it reads the variable `rate`; the loss computed by the call inside the tape reaches `rate`. The summary of `solve` depended on its parameter `fn`, and a lambda given for it carried nothing: a false GG302
# family: 6
import tensorflow as tf

rate = tf.Variable(0.5)
optimizer = tf.keras.optimizers.SGD(0.1)


def solve(fn, state):
    for _ in range(3):
        state = state + 0.1 * fn(state)
    return state


with tf.GradientTape() as tape:
    loss = tf.square(solve(lambda s: rate * s, tf.constant(1.0)) - 2.0)
grads = tape.gradient(loss, [rate])
optimizer.apply_gradients(zip(grads, [rate]))
