# expect: GG313@24
# tensorflow: none
# fixed: nofix
# shape: a multi-task classifier: each task head's loss only looks at the samples labelled for that task, and when no sample of the batch has a label for the task (a "full mask") it returns the constant tf.constant(0.0) as that task's loss; on such a batch the summed loss has no path to that head, whose kernel and bias get None (rebuilt in TensorFlow from an mmpretrain PR that replaced torch.tensor(0.) for the same reason)
# source: https://github.com/open-mmlab/mmpretrain/pull/1426
# heldout: 5
# gap: the early `return tf.constant(0.0)` is seen (as a fallback of task_loss), but task_loss is called in a dict comprehension over the heads: the abstract call stands for every head, and an iteration that does not take the branch keeps the backbone trained, so no path is proven; it would need each iteration of the comprehension apart (one call per head)
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
        return tf.constant(0.0)
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
