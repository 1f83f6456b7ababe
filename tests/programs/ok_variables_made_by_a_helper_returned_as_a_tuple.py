# expect: none
# tensorflow: ok
# shape: a helper makes two variables and returns them as a tuple (`q, t = get_random_transform()`), and each training step asks for their gradients in a function that opens its own tape. When a function's returned tuple kept its elements, the variables it made lost their identity in the caller's terms: a false GG301 (seen in a tensorflow/graphics notebook, never run before, while this was being written)
# family: 1
import numpy as np
import tensorflow as tf



vertices = tf.ones((5, 3))


def rotate(points, q):
    return points * tf.reduce_sum(q)


def dot(a, b):
    return tf.reduce_sum(a * b, axis=-1)


def transform_points(points, q, t):
    return rotate(points, q) + t


def get_random_transform():
    t = tf.Variable(np.random.uniform(-2.0, 2.0, (3,)), dtype=tf.float32)
    q = tf.Variable(np.random.uniform(-1.0, 1.0, (4,)).astype(np.float32))
    return q, t


def loss(points, q, t):
    error = vertices - transform_points(points, q, t)
    return dot(error, error)


def gradient_loss(points, q, t):
    with tf.GradientTape() as tape:
        loss_value = loss(points, q, t)
    return tape.gradient(loss_value, [q, t])


optimizer = tf.keras.optimizers.Adam(0.05)
random_quaternion, random_translation = get_random_transform()
for it in range(3):
    grads = gradient_loss(vertices, random_quaternion, random_translation)
    print([g is None for g in grads])
    optimizer.apply_gradients(zip(grads, (random_quaternion, random_translation)))
