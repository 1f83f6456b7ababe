# expect: GG302@26
# tensorflow: none
# fixed: ok
# shape: a ResNet-style classifier with BatchNormalization trained eagerly; the tape is asked for `model.variables`, which holds the batch-norm moving mean and variance next to the weights: those two never reach the loss, so their gradients are None (the answer: `model.trainable_variables`)
# source: https://github.com/tensorflow/tensorflow/issues/26404
# family: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(4, 3, padding="same", use_bias=False),
    keras.layers.BatchNormalization(),
    keras.layers.ReLU(),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(5),
])
optimizer = keras.optimizers.SGD(0.01)
x = np.random.rand(4, 8, 8, 3).astype("float32")
label = np.random.randint(0, 5, size=4)

with tf.GradientTape() as tape:
    prediction = model(x, training=True)
    loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(label, prediction, from_logits=True))
grads = tape.gradient(loss, model.variables)
