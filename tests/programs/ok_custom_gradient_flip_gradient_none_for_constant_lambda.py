# expect: none
# tensorflow: ok
# shape: DANN gradient reversal written with @tf.custom_gradient as flip_grad_layer(x, l): the forward pass is tf.identity(x) and grad returns (-dy * l, None), None for the constant trade-off weight l that nothing trains, so every variable of the feature extractor and both heads still gets a gradient
# source: https://github.com/pumpikano/tf-dann/issues/27
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


@tf.custom_gradient
def flip_grad_layer(x, l):
    def grad(dy):
        return tf.negative(dy) * l, None

    return tf.identity(x), grad


features = keras.Sequential([keras.Input(shape=(6,)), keras.layers.Dense(8, activation="relu")])
label_head = keras.layers.Dense(2)
domain_head = keras.layers.Dense(1)
optimizer = keras.optimizers.SGD(0.01)

x = np.random.rand(8, 6).astype(np.float32)
y = np.random.randint(0, 2, size=(8,))
domain = np.random.randint(0, 2, size=(8, 1)).astype(np.float32)
l = tf.constant(0.3)

with tf.GradientTape() as tape:
    h = features(x)
    label_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=label_head(h)))
    domain_logits = domain_head(flip_grad_layer(h, l))
    domain_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=domain, logits=domain_logits))
    loss = label_loss + domain_loss
variables = features.trainable_variables + label_head.trainable_variables + domain_head.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
