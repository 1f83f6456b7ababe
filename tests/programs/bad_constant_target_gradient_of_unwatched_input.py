# expect: GG302@12 GG306@12
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/56968
# shape: Grad-CAM style gradient of a tf.constant "class channel" with respect to an input tensor it does not depend on
# heldout: 6
import tensorflow as tf

ones = tf.ones([1, 16, 16, 1], tf.float32)
with tf.GradientTape() as tape:
    class_channel = tf.constant([4.4328732], dtype=tf.float32)
    grads = tape.gradient(class_channel, ones)
