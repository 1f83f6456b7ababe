# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/56968
# shape: Grad-CAM style gradient of a class score computed from the watched input tensor (the thread's fix: make the target depend on the source)
# heldout: 6
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(16, 16, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(3),
])

ones = tf.ones([1, 16, 16, 1], tf.float32)
with tf.GradientTape() as tape:
    tape.watch(ones)
    class_channel = model(ones)[:, 0]
    grads = tape.gradient(class_channel, ones)
