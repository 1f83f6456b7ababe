# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/50111
# shape: fixed twin: the prediction tensor itself is passed to the loss function
# heldout: 8
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = tf.constant(rng.normal(size=(16, 3)), dtype=tf.float32)
y = tf.constant(rng.normal(size=(16, 1)), dtype=tf.float32)

w = tf.Variable(tf.random.normal([3, 1]))
optimizer = tf.keras.optimizers.Adam(0.1)


def weighted_loss(prediction, target):
    # a "complicated" loss: squared error weighted by how far the target is from zero
    weights = 1.0 + tf.abs(target)
    return tf.reduce_mean(weights * tf.square(prediction - target))


for step in range(2):
    with tf.GradientTape() as tape:
        prediction = tf.matmul(x, w)
        loss = weighted_loss(prediction, y)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))
    print(step, float(loss))
