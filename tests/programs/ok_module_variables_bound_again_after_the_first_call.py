# expect: none
# tensorflow: ok
# shape: a function reads module variables `w` and `b`; after the first training call the same names are bound to new variables and trained again. Python reads them when the function runs, but the function's summary, computed at the first call, kept the old ones, so the training step (asking for the new `w` and `b`) "never used" them: a false GG302. Seen in notebooks of two repositories never run before (a model restored into fresh variables, a tutorial re-run)
# family: 1
import tensorflow as tf

w = tf.Variable([[0.5], [0.5]])
b = tf.Variable([0.0])


def predict(inputs):
    return tf.matmul(inputs, w) + b


def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(targets - predict(inputs)))
    grad_w, grad_b = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * grad_w)
    b.assign_sub(0.1 * grad_b)
    return loss


train_step(tf.ones((4, 2)), tf.zeros((4, 1)))

# A fresh start: the same names bound to new variables, then trained the same way.
w = tf.Variable([[1.0], [1.0]])
b = tf.Variable([1.0])
train_step(tf.ones((4, 2)), tf.zeros((4, 1)))
