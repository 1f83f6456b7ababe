# expect: none
# tensorflow: ok
# shape: the network a layer of another module is built from is the model itself on one branch and a lambda around it on the other (`network = network_` or `lambda x: mask + network_(x)`); after the `if`, the name may be either. The branches' join kept neither: a false GG302 ("never uses `network_`", edward2's discrete flow test, never run before)
import tensorflow as tf

from rlkit.flows import ShiftFlow

loc_only = False
network_ = tf.keras.layers.Dense(3)
if loc_only:
    network = network_
else:
    mask = tf.constant([0.0, 1.0, 0.0])
    network = lambda inputs: mask + network_(inputs)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    flow = ShiftFlow(network, 1.0)
    loss = tf.reduce_sum(flow(x))
grads = tape.gradient(loss, network_.weights)
