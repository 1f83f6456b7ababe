# expect: GG304@20
# tensorflow: none
# fixed: ok
# shape: linear regression from scratch with tf.Variable weights updated by w = w - lr * dw (two steps)
import numpy as np
import tensorflow as tf

x = np.random.rand(8, 1).astype(np.float32)
y = 3.0 * x + 2.0 + 0.1 * np.random.randn(8, 1).astype(np.float32)

w = tf.Variable(tf.random.normal((1, 1)), name="w")
b = tf.Variable(tf.zeros((1,)), name="b")
learning_rate = 0.1

for step in range(2):
    with tf.GradientTape() as tape:
        y_pred = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(y - y_pred))
    dw, db = tape.gradient(loss, [w, b])
    w = w - learning_rate * dw
    b.assign_sub(learning_rate * db)
