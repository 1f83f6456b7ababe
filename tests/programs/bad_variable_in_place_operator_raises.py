# expect: GG304@15
# tensorflow: raises RuntimeError
# fixed: ok
# shape: a manual SGD step written with an in-place operator on the variable (`w -= lr * dw`): TensorFlow 2.21 refuses it with a RuntimeError; `w.assign_sub(...)` is the update (after the "Gradients do not exist" reports of hand-written training loops)
import tensorflow as tf

w = tf.Variable(0.0)
x = tf.constant([1.0, 2.0, 3.0, 4.0])
y = tf.constant([3.0, 5.0, 7.0, 9.0])

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(y - w * x))
    dw = tape.gradient(loss, w)
    w -= 0.01 * dw
