"""Forward passes kept apart from the training step."""
import tensorflow as tf


def q_values(approximator, states) -> tf.Tensor:
    return approximator(states)


def td_losses(q, targets):
    """The TD loss and its parts, as a tuple: the caller picks what it trains on."""
    squared = tf.square(targets - q)
    return tf.reduce_mean(squared), tf.reduce_max(squared)


def logged(fn):
    """`fn`, wrapped by a function defined here (a decorator's shape)."""
    def wrapped(*args):
        return fn(*args)
    return wrapped
