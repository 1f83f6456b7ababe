# expect: none
# tensorflow: ok
# shape: `unconnected_gradients=tf.UnconnectedGradients.ZERO` returns zeros for a source the target does not use, never None (after tensorflow/docs site/en/guide/autodiff.ipynb "Zeros instead of None")
import tensorflow as tf

x = tf.Variable([2.0, 2.0])
y = tf.Variable(3.0)

with tf.GradientTape() as tape:
    z = y ** 2
dz_dx = tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)

with tf.GradientTape() as tape:
    w = y * 2.0
dw_dx = tape.gradient(w, [x, y], unconnected_gradients="zero")
