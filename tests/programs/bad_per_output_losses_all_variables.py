# expect: GG302@32
# tensorflow: none
# fixed: nofix
# gap: gradguard is silent: each loss of the list comprehension `[l_f(..., predictions[i]) for i, l_f in enumerate(loss_functions)]` is one abstract value standing for every iteration, so it reads both heads, and no loss is proven to leave the other head's layers without a gradient; it would need each iteration of the comprehension apart (one loss per output, as for the multi-task gap of held-out sample 6)
# source: https://github.com/tensorflow/tensorflow/issues/35068
# shape: two-head model, one loss per output branch, each loss differentiated with a persistent tape against all model.trainable_variables; the other head's variables get None
# heldout: 9
import numpy as np
import tensorflow as tf
import keras
from keras import layers

X_in = keras.Input((6,))
F_in = keras.Input((3,))
trunk = layers.Dense(8, activation="relu")(layers.Concatenate()([X_in, F_in]))
out_a = layers.Dense(1, name="head_a")(trunk)
out_b = layers.Dense(1, name="head_b")(trunk)
model = keras.Model([X_in, F_in], [out_a, out_b])

loss_functions = [keras.losses.MeanSquaredError(), keras.losses.MeanAbsoluteError()]
optimizer = keras.optimizers.Adam(1e-3)

X = np.random.rand(16, 6).astype("float32")
F = np.random.rand(16, 3).astype("float32")
labels = np.random.rand(16, 2).astype("float32")


def train_step(X, F, labels):
    with tf.GradientTape(persistent=True) as tape:
        predictions = model([X, F], training=True)
        losses = [l_f(tf.expand_dims(labels[:, i], axis=-1), predictions[i]) for i, l_f in enumerate(loss_functions)]
    gradients = [tape.gradient(l, model.trainable_variables) for l in losses]
    del tape
    for g in gradients:
        optimizer.apply_gradients(zip(g, model.trainable_variables))
    return losses


train_step(X, F, labels)
