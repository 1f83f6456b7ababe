# expect: GG302@13 GG306@13
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/56968
# shape: Grad-CAM style gradient of a tf.constant "class channel" with respect to an input tensor it does not depend on
# gap: gradguard reports only that `ones` is unwatched (GG306); the target is a constant that depends on nothing, so watching it still gives None, and GG302 ('the loss never uses `ones`') appears only after the first fix is applied; both should be said at once
# heldout: 6
import tensorflow as tf

ones = tf.ones([1, 16, 16, 1], tf.float32)
with tf.GradientTape() as tape:
    class_channel = tf.constant([4.4328732], dtype=tf.float32)
    grads = tape.gradient(class_channel, ones)
