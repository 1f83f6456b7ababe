# expect: none
# tensorflow: ok
# shape: the loss is a closure over a layer that is a local variable of the enclosing function; the training step calls it inside the tape (after keras-team/keras keras/src/layers/core/dense_test.py `def loss_fn(x, dy): y = layer(x, training=True)`)
import numpy as np
import tensorflow as tf


def test_training_step():
    layer = tf.keras.layers.Dense(4)
    layer.build((None, 3))
    optimizer = tf.keras.optimizers.SGD(0.1)

    def loss_fn(x, dy):
        y = layer(x, training=True)
        return tf.reduce_sum(y * tf.cast(dy, y.dtype))

    def train_one_step(x, dy):
        with tf.GradientTape() as tape:
            loss = loss_fn(x, dy)
        grads = tape.gradient(loss, layer.trainable_variables)
        optimizer.apply_gradients(zip(grads, layer.trainable_variables))
        return grads

    return train_one_step(np.random.rand(2, 3).astype("float32"), np.ones((2, 4), "float32"))


test_training_step()
