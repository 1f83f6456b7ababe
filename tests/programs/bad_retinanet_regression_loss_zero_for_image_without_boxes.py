# expect: GG313@21
# tensorflow: none
# fixed: nofix
# shape: a RetinaNet focal loss loops over the images of the batch and, for an image without annotations, keeps the background classification term but appends a constant 0.0 as its regression loss; on a batch of such images the summed regression loss is a constant, so the box-regression head gets None (rebuilt in TensorFlow from a PyTorch RetinaNet thread, where the same branch appends torch.tensor(0).float())
# source: https://github.com/yhenon/pytorch-retinanet/issues/196
# heldout: 4
# gap: gradguard does not see a loss that is a constant on one branch of a per-image loop: it would need to follow the `regression_losses` list, whose only element on the no-annotation path is tf.constant(0.0), into the summed loss and see that the regression head's variables get no gradient from it
import numpy as np
import tensorflow as tf
import keras


def focal_loss(classifications, regressions, annotations, alpha=0.25, gamma=2.0):
    classification_losses, regression_losses = [], []
    for j in range(classifications.shape[0]):
        classification, regression, bbox_annotation = classifications[j], regressions[j], annotations[j]
        if bbox_annotation.shape[0] == 0:
            focal_weight = (1.0 - alpha) * tf.pow(classification, gamma)
            bce = -tf.math.log(1.0 - classification)
            classification_losses.append(tf.reduce_sum(focal_weight * bce))
            regression_losses.append(tf.constant(0.0))
            continue
        targets = tf.one_hot(tf.cast(bbox_annotation[:, 4], tf.int32), classification.shape[-1])
        bce = -tf.math.log(tf.reduce_sum(targets[:1] * classification, axis=-1))
        classification_losses.append(tf.reduce_sum(bce))
        regression_losses.append(tf.reduce_mean(tf.abs(regression[:1] - bbox_annotation[:1, :4])))
    return tf.reduce_mean(tf.stack(classification_losses)), tf.reduce_mean(tf.stack(regression_losses))


backbone = keras.layers.Dense(16, activation="relu", name="backbone")
classification_head = keras.layers.Dense(3, activation="sigmoid", name="classification")
regression_head = keras.layers.Dense(4, name="regression")
optimizer = keras.optimizers.Adam(1e-4)

images = np.random.rand(2, 5, 12).astype(np.float32)  # two images, five anchors each
annotations = [np.zeros((0, 5), dtype=np.float32), np.zeros((0, 5), dtype=np.float32)]  # neither image has a box

with tf.GradientTape() as tape:
    features = backbone(images)
    classification_loss, regression_loss = focal_loss(classification_head(features), regression_head(features), annotations)
    loss = classification_loss + regression_loss
variables = backbone.trainable_variables + classification_head.trainable_variables + regression_head.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
