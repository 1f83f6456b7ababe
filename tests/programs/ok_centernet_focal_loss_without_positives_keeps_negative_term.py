# expect: none
# tensorflow: ok
# shape: a CenterNet heatmap focal loss that branches on num_pos == 0.0 (eager Python `if`): with no object centres in the batch it returns `loss - neg_loss` instead of normalising by num_pos, but neg_loss still depends on the predicted heatmap, so the head gets a gradient on both branches
# source: https://github.com/xggIoU/centernet_tensorflow_wilderface_voc/issues/18
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


def focal_loss(pred, gt):
    pos_inds = tf.cast(tf.equal(gt, 1.0), tf.float32)
    neg_inds = tf.cast(tf.less(gt, 1.0), tf.float32)
    neg_weights = tf.pow(1.0 - gt, 4)
    pred = tf.clip_by_value(pred, 1e-6, 1.0 - 1e-6)
    pos_loss = tf.reduce_sum(tf.math.log(pred) * tf.pow(1.0 - pred, 2) * pos_inds)
    neg_loss = tf.reduce_sum(tf.math.log(1.0 - pred) * tf.pow(pred, 2) * neg_weights * neg_inds)
    num_pos = tf.reduce_sum(pos_inds)
    loss = 0.0
    if num_pos == 0.0:
        loss = loss - neg_loss
    else:
        loss = loss - (pos_loss + neg_loss) / num_pos
    return loss


model = keras.Sequential([
    keras.Input(shape=(8, 8, 3)),
    keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)
images = np.random.rand(2, 8, 8, 3).astype(np.float32)
heatmaps = np.random.rand(2, 8, 8, 1).astype(np.float32) * 0.5  # no object centre in this batch

with tf.GradientTape() as tape:
    loss = focal_loss(model(images, training=True), heatmaps)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
