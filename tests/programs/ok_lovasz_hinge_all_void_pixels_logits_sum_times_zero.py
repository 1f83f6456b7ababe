# expect: none
# tensorflow: ok
# shape: the Lovasz hinge loss on flattened pixels after the void label has been filtered out: when every pixel of the batch is void, lovasz_hinge_flat returns tf.reduce_sum(logits) * 0. (the maintainer's point in the PR: it has the value 0 and the gradient 0 with respect to the logits) instead of a fresh constant, so on that batch the segmentation head still gets a (zero) gradient, not None
# source: https://github.com/bermanmaxim/LovaszSoftmax/pull/14
# heldout: 5
import numpy as np
import tensorflow as tf
import keras


def lovasz_grad(gt_sorted):
    gts = tf.reduce_sum(gt_sorted)
    intersection = gts - tf.cumsum(gt_sorted)
    union = gts + tf.cumsum(1.0 - gt_sorted)
    jaccard = 1.0 - intersection / union
    return tf.concat((jaccard[0:1], jaccard[1:] - jaccard[:-1]), 0)


def lovasz_hinge_flat(logits, labels):
    if len(labels) == 0:
        # only void pixels, the gradients should be 0
        return tf.reduce_sum(logits) * 0.
    signs = 2.0 * labels - 1.0
    errors = 1.0 - logits * tf.stop_gradient(signs)
    errors_sorted, perm = tf.nn.top_k(errors, k=tf.shape(errors)[0])
    grad = lovasz_grad(tf.gather(labels, perm))
    return tf.tensordot(tf.nn.relu(errors_sorted), tf.stop_gradient(grad), 1)


def flatten_binary_scores(scores, labels, ignore=255):
    scores, labels = tf.reshape(scores, (-1,)), tf.reshape(labels, (-1,))
    valid = tf.not_equal(labels, ignore)
    return tf.boolean_mask(scores, valid), tf.cast(tf.boolean_mask(labels, valid), tf.float32)


head = keras.layers.Conv2D(1, 1, name="seg_logits")
optimizer = keras.optimizers.Adam(1e-3)
features = np.random.rand(2, 4, 4, 3).astype(np.float32)
labels = np.full((2, 4, 4), 255, dtype=np.int32)  # every pixel of this batch is void

with tf.GradientTape() as tape:
    logits = head(features)[..., 0]
    loss = lovasz_hinge_flat(*flatten_binary_scores(logits, labels))
grads = tape.gradient(loss, head.trainable_variables)
optimizer.apply_gradients(zip(grads, head.trainable_variables))
