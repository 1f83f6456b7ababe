# expect: GG313@22
# tensorflow: none
# fixed: nofix
# shape: an eager Faster R-CNN bbox-head loss gathers the deltas of positive ROIs and falls back to `tf.reduce_mean(loss) if tf.size(loss) > 0 else tf.constant(0.0)`; on a batch whose sampled ROIs are all background the fallback constant is the whole bbox loss, so the bbox head's kernel and bias get None ("Gradients do not exist for variables ['rcnn_bbox_fc/kernel:0', 'rcnn_bbox_fc/bias:0']")
# source: https://github.com/Viredery/tf-eager-fasterrcnn/issues/3
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


def smooth_l1_loss(y_true, y_pred):
    diff = tf.abs(y_true - y_pred)
    return tf.where(diff < 1.0, 0.5 * diff ** 2, diff - 0.5)


def rcnn_bbox_loss(target_deltas, target_matchs, rcnn_deltas):
    positive_roi_ix = tf.where(target_matchs > 0)[:, 0]
    target_deltas = tf.gather(target_deltas, positive_roi_ix)
    rcnn_deltas = tf.gather(rcnn_deltas, positive_roi_ix)
    loss = smooth_l1_loss(target_deltas, rcnn_deltas)
    loss = tf.reduce_mean(loss) if tf.size(loss) > 0 else tf.constant(0.0)
    return loss


roi_features = keras.layers.Dense(16, activation="relu", name="rcnn_fc")
rcnn_class_logits = keras.layers.Dense(3, name="rcnn_class_logits")
rcnn_bbox_fc = keras.layers.Dense(4, name="rcnn_bbox_fc")
optimizer = keras.optimizers.SGD(0.01)

rois = np.random.rand(8, 10).astype(np.float32)
target_matchs = np.zeros(8, dtype=np.int32)  # this batch sampled only background ROIs
target_deltas = np.random.rand(8, 4).astype(np.float32)

with tf.GradientTape() as tape:
    h = roi_features(rois)
    class_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target_matchs, logits=rcnn_class_logits(h)))
    bbox_loss = rcnn_bbox_loss(target_deltas, target_matchs, rcnn_bbox_fc(h))
    loss = class_loss + bbox_loss
variables = roi_features.trainable_variables + rcnn_class_logits.trainable_variables + rcnn_bbox_fc.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
