# expect: none
# tensorflow: ok
# shape: a helper of another module returns a tuple of losses; the training step picks the first after the tape's block (`losses[0]`), which indexes a Python tuple, no TensorFlow op. Taken for an op outside the tape: a false GG301 (seen in google/uncertainty-baselines, never run before)
import tensorflow as tf

from rlkit.predict import td_losses

net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    losses = td_losses(net(states), targets)
loss = losses[0]
grads = tape.gradient(loss, net.trainable_variables)
