# expect: GG101@29
# tensorflow: none
# fixed: nofix
# shape: gradient of a custom loss with respect to the input image (tape.watch(image)), the loss helper converting the predictions to numpy for its computation; the thread's own diagnosis: never convert to numpy before the gradient
# source: https://github.com/tensorflow/tensorflow/issues/36596
# family: 3
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(5, activation="softmax"),
])


def custom_loss(label, predictions):
    probs = predictions.numpy()
    return -tf.reduce_sum(label * tf.math.log(probs + 1e-7))


image = tf.constant(np.random.rand(1, 16, 16, 3).astype(np.float32))
label = tf.one_hot([2], 5)

with tf.GradientTape() as tape:
    tape.watch(image)
    loss = custom_loss(label, model(image))
gradient = tape.gradient(loss, image)
