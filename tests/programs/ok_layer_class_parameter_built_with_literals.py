# expect: none
# tensorflow: ok
# shape: a test helper is given a layer class (`layer`, a parameter: only its name says it is a model) and builds the layer with literal arguments (`layer(10, kernel_regularizer="l2")`), then differentiates its penalty in a tape. Taken for a forward pass of a model named `layer` run outside the tape: a false GG301 (edward2's layer tests, never run before); a Keras layer never takes a number for its input
# family: 2
import numpy as np
import tensorflow as tf


def check_penalty_gradient(layer):
    features = np.random.rand(5, 12).astype(np.float32)
    model = layer(10, kernel_regularizer="l2")
    with tf.GradientTape() as tape:
        model(features)
        penalty = sum(model.losses)
    grads = tape.gradient(penalty, [model.kernel])
    assert all(g is not None for g in grads)


check_penalty_gradient(tf.keras.layers.Dense)
