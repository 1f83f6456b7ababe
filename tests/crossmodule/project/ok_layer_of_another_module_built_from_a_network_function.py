# expect: none
# tensorflow: ok
# shape: a Keras layer of another module is built from a function that runs the network (`ShiftFlow(lambda x: mask + network_(x), 1.0)`) and the gradient is asked for the network's weights. The layer was a new model reading nothing it was given: a false GG302 (edward2's discrete flow test, never run before)
import tensorflow as tf

from rlkit.flows import ShiftFlow

network_ = tf.keras.layers.Dense(3)
mask = tf.constant([0.0, 1.0, 0.0])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    flow = ShiftFlow(lambda inputs: mask + network_(inputs), 1.0)
    loss = tf.reduce_sum(flow(x))
grads = tape.gradient(loss, network_.weights)
