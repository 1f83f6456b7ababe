# expect: none
# tensorflow: ok
# shape: the fix from the thread: the same BatchNormalization classifier asks the tape for `model.trainable_variables` (kernel, gamma, beta, dense), every one of which reaches the loss; the moving statistics are left to the layer
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
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
