# expect: none
# tensorflow: ok
# shape: a helper returns a tuple of losses; the training step picks the first after the tape's block (`losses[0]`), which indexes a Python tuple: no op, nothing for the tape to record. Taken for an op outside the tape: a false GG301 (the shape of google/uncertainty-baselines' VRNN training step, a repository never run before)
# family: 1
import tensorflow as tf


def compute_losses(outputs, y):
    total = tf.reduce_mean(tf.square(outputs - y))
    return total, total * 0.5


model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.ones((4, 3))
y = tf.zeros((4, 1))
with tf.GradientTape() as tape:
    losses = compute_losses(model(x), y)
total_loss = losses[0]
grads = tape.gradient(total_loss, model.trainable_variables)
