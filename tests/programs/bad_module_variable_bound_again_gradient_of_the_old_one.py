# expect: GG302@22
# tensorflow: none
# shape: a function reads the module variable `w`; after the first training step `w` is bound to a new variable, and the second step asks for the first one (`first_w`), which the function no longer reads. Its summary kept the first `w`, so the step was silent
# family: 1
import tensorflow as tf

w = tf.Variable([[0.5], [0.5]])
first_w = w


def predict(inputs):
    return tf.matmul(inputs, w)


x = tf.ones((4, 2))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(predict(x) ** 2)

w = tf.Variable([[1.0], [1.0]])  # `predict` reads this one from now on
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(predict(x) ** 2)
grads = tape.gradient(loss, [first_w])
