# expect: none
# tensorflow: ok
# shape: the fix of the same PR: when no sample of the batch has a label for a task, the task loss is built from the head's own scores times zero, tf.reduce_sum(cls_score * 0.0), instead of a fresh constant: its value is still 0 but it stays connected to the head, whose kernel and bias get zero gradients instead of None
# source: https://github.com/open-mmlab/mmpretrain/pull/1426
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

backbone = keras.layers.Dense(16, activation="relu", name="backbone")
heads = {"color": keras.layers.Dense(3, name="color_head"), "shape": keras.layers.Dense(4, name="shape_head")}
optimizer = keras.optimizers.SGD(0.01)

features_in = np.random.rand(6, 10).astype(np.float32)
# -1 marks a sample without a label for that task: this batch has no "shape" labels at all
task_labels = {"color": np.array([0, 2, 1, -1, 0, 1]), "shape": np.full(6, -1)}


def task_loss(cls_score, labels):
    keep = tf.where(labels >= 0)[:, 0]
    if tf.size(keep) == 0:
        return tf.reduce_sum(cls_score * 0.0)
    logits = tf.gather(cls_score, keep)
    targets = tf.gather(labels, keep)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits))


with tf.GradientTape() as tape:
    feats = backbone(features_in)
    losses = {name: task_loss(head(feats), task_labels[name]) for name, head in heads.items()}
    loss = tf.add_n(list(losses.values()))
variables = backbone.trainable_variables + [v for head in heads.values() for v in head.trainable_variables]
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
