# expect: none
# tensorflow: ok
# shape: a nested function declares `nonlocal total` and adds `x * w` to it, called inside the tape; the loss is computed from `total` afterwards and reaches `w`. What a followed function bound to a name it declares `nonlocal` (or `global`) stayed in its own frame, so `total` was still the constant zero for the caller: a false GG302
# family: 6
import tensorflow as tf


def train():
    w = tf.Variable(1.5)
    optimizer = tf.keras.optimizers.SGD(0.01)
    total = tf.constant(0.0)

    def accumulate(x):
        nonlocal total
        total = total + x * w

    with tf.GradientTape() as tape:
        accumulate(tf.constant(2.0))
        loss = tf.square(total - 1.0)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


train()
