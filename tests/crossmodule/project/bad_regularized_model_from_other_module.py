# expect: GG311
# tensorflow: ok
# shape: the network is built in another module with a kernel_regularizer; the hand-written loss of the tape never adds its model.losses (training ignores the regularizer)
import tensorflow as tf

from rlkit.nets import build_regularized_q_network

approximator = build_regularized_q_network()
optimizer = tf.keras.optimizers.Adam(1e-3)
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(targets - approximator(states)))
grads = tape.gradient(loss, approximator.trainable_variables)
optimizer.apply_gradients(zip(grads, approximator.trainable_variables))
