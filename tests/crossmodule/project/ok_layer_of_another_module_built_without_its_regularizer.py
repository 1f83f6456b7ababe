# expect: none
# tensorflow: ok
# shape: a layer of another module passes `kernel_regularizer=self._kernel_regularizer` on, from its `kernel_regularizer=None` parameter; built without one it has no penalty (`layer.losses` is empty), so a hand-written loss leaves nothing out. The declaration was taken for a penalty whatever the construction gave: a false GG311 (tensorflow/graphics' graph convolution tests, never run before)
import tensorflow as tf

from rlkit.flows import ProjectedDense

layer = ProjectedDense(2)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x)))
grads = tape.gradient(loss, layer.trainable_variables)
