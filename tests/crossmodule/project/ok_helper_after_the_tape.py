# expect: none
# tensorflow: ok
# shape: the imported .numpy() helper used for logging after the gradient is taken
import tensorflow as tf

from rlkit import build_q_network, to_numpy

net = build_q_network()
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = net(states)
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, net.trainable_variables)
print("mean q", to_numpy(q).mean(), "loss", to_numpy(loss))
