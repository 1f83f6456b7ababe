# expect: none
# tensorflow: ok
# shape: a context manager of the program records what runs in its block (`with trace() as recorded:`, as edward2's tracer records random variables), and the loss is made of what it recorded. A manager nobody follows may yield later what its block computed; read as nothing, it gave a false GG302 (edward2's Companion notebook, never run before)
# family: 1
import contextlib

import tensorflow as tf

_STACK = []


def record(value):
    """What runs inside `trace()` is recorded, as edward2's tracer records random variables."""
    if _STACK:
        _STACK[-1].append(value)
    return value


@contextlib.contextmanager
def trace():
    _STACK.append([])
    try:
        yield _STACK[-1]
    finally:
        _STACK.pop()


model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    with trace() as recorded:
        _ = record(model(x))
    loss = tf.add_n([tf.reduce_sum(v) for v in recorded])
grads = tape.gradient(loss, model.trainable_variables)
