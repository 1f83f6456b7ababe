# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/30190
# shape: fixed twin: the per-sample losses stay tensors, so the distance loss is differentiable
# heldout: 8
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(3),
])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def get_distance_to_normal(losses):
    # distance between the batch's loss statistics and a unit normal distribution
    mean = sum(losses) / len(losses)
    var = sum((l - mean) ** 2 for l in losses) / len(losses)
    return (mean - 1.0) ** 2 + (var - 1.0) ** 2


def loss(model, x, y):
    y_ = model(x)
    losses = []
    for i in range(y.shape[0]):
        per_sample = loss_object(y_true=y[i:i + 1], y_pred=y_[i:i + 1])
        losses.append(per_sample)
    dis = get_distance_to_normal(losses)
    return tf.convert_to_tensor(dis, dtype=np.float32)


def grad(model, inputs, targets):
    with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets)
    return loss_value, tape.gradient(loss_value, model.trainable_variables)


features = tf.random.normal([8, 4])
labels = tf.random.uniform([8], maxval=3, dtype=tf.int32)
loss_value, grads = grad(model, features, labels)
print("loss_value:", float(loss_value))
print("grads:", [g is None for g in grads])
