# expect: GG313@22 GG313@28
# tensorflow: none
# fixed: nofix
# shape: the Mask R-CNN RPN losses ported to TF 2 and run eagerly in a GradientTape loop: rpn_bbox_loss keeps only the positive anchors and ends with the K.switch idiom written as tf.cond(tf.size(loss) > 0, lambda: tf.reduce_mean(loss), lambda: tf.constant(0.0)); on an image whose anchors are all negative, eager tf.cond runs the constant branch, the box loss is that constant and the RPN box head gets None
# source: https://github.com/matterport/Mask_RCNN/issues/1797
# heldout: 5
import numpy as np
import tensorflow as tf
import keras


def smooth_l1_loss(y_true, y_pred):
    diff = tf.abs(y_true - y_pred)
    less_than_one = tf.cast(tf.less(diff, 1.0), "float32")
    return (less_than_one * 0.5 * diff ** 2) + (1 - less_than_one) * (diff - 0.5)


def rpn_class_loss_graph(rpn_match, rpn_class_logits):
    anchor_class = tf.cast(tf.equal(rpn_match, 1), tf.int32)
    indices = tf.where(tf.not_equal(rpn_match, 0))[:, 0]
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.gather(anchor_class, indices), logits=tf.gather(rpn_class_logits, indices))
    return tf.cond(tf.size(loss) > 0, lambda: tf.reduce_mean(loss), lambda: tf.constant(0.0))


def rpn_bbox_loss_graph(target_bbox, rpn_match, rpn_bbox):
    indices = tf.where(tf.equal(rpn_match, 1))[:, 0]
    loss = smooth_l1_loss(tf.gather(target_bbox, indices), tf.gather(rpn_bbox, indices))
    return tf.cond(tf.size(loss) > 0, lambda: tf.reduce_mean(loss), lambda: tf.constant(0.0))


rpn_conv = keras.layers.Dense(16, activation="relu", name="rpn_conv_shared")
rpn_class_raw = keras.layers.Dense(2, name="rpn_class_raw")
rpn_bbox_pred = keras.layers.Dense(4, name="rpn_bbox_pred")
optimizer = keras.optimizers.SGD(0.001, momentum=0.9)

anchor_features = np.random.rand(12, 8).astype(np.float32)
rpn_match = np.array([-1] * 6 + [0] * 6, dtype=np.int32)  # this image matched no positive anchor
target_bbox = np.zeros((12, 4), dtype=np.float32)

with tf.GradientTape() as tape:
    shared = rpn_conv(anchor_features)
    class_loss = rpn_class_loss_graph(rpn_match, rpn_class_raw(shared))
    bbox_loss = rpn_bbox_loss_graph(target_bbox, rpn_match, rpn_bbox_pred(shared))
    loss = class_loss + bbox_loss
variables = rpn_conv.trainable_variables + rpn_class_raw.trainable_variables + rpn_bbox_pred.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
