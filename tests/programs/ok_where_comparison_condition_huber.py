# expect: none
# tensorflow: ok
# shape: hand-written Huber loss: tf.abs(err) <= delta used only as tf.where's condition, both branches differentiable; a label-derived mask from a comparison
import numpy as np
import tensorflow as tf

delta = 1.0
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.05)

x = np.random.randn(8, 4).astype(np.float32)
y = (3 * np.random.randn(8, 1)).astype(np.float32)


def huber(y_true, y_pred):
    err = y_true - y_pred
    is_small = tf.abs(err) <= delta
    squared = 0.5 * tf.square(err)
    linear = delta * (tf.abs(err) - 0.5 * delta)
    valid = tf.cast(tf.greater(y_true, -100.0), tf.float32)
    return tf.reduce_sum(tf.where(is_small, squared, linear) * valid) / tf.reduce_sum(valid)


with tf.GradientTape() as tape:
    pred = model(x)
    loss = huber(y, pred)
    positive = tf.where(pred > 0, pred, tf.zeros_like(pred))
    loss = loss + 0.01 * tf.reduce_mean(positive)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(float(loss))
