# expect: GG313@16
# tensorflow: none
# fixed: nofix
# shape: the loss function handed to a TF1-style optimizer's minimize falls back to tf.constant(0.0) when a batch looks unusual, and every batch here takes that branch: minimize differentiates a constant and its variable gets None (from the oracle's fallback dimension with `asked=minimize`, gen_20261202_1433)
import tensorflow as tf

w = tf.Variable(tf.ones((3, 1)) * 0.5)
x = tf.random.normal((4, 3))
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.01)


def compute_loss(x):
    if tf.reduce_max(tf.abs(x)) > 1e6:
        prediction = x @ w
    else:
        prediction = tf.constant(0.0)
    return tf.reduce_mean(prediction)


optimizer.minimize(lambda: compute_loss(x), var_list=[w])
