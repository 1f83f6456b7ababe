# expect: none
# tensorflow: ok
# shape: the fix of the Grad-CAM program: one model `grad_model` returns both the `last_conv` activations and the predictions (the keras.io recipe), so `preds` is computed from `last_conv_output` inside the tape, and the class score `class_channel = preds[:, top_class_index]` is taken inside the tape too (taken in the `tape.gradient` call, as in the thread, the slice is not recorded and the gradient is still None); `tape.gradient(class_channel, last_conv_output)` is present
# source: https://github.com/tensorflow/tensorflow/issues/62797
# family: 6
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(16, 16, 3))
h = keras.layers.Conv2D(8, 3, activation="relu")(inputs)
h = keras.layers.Conv2D(8, 3, activation="relu", name="last_conv")(h)
h = keras.layers.GlobalAveragePooling2D()(h)
outputs = keras.layers.Dense(5, activation="softmax")(h)
model = keras.Model(inputs, outputs)

grad_model = keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])
img = np.random.rand(1, 16, 16, 3).astype(np.float32)

with tf.GradientTape() as tape:
    last_conv_output, preds = grad_model(img)
    top_class_index = tf.argmax(preds[0])
    class_channel = preds[:, top_class_index]
grads = tape.gradient(class_channel, last_conv_output)
pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))
heatmap = tf.reduce_sum(last_conv_output[0] * pooled_grads, axis=-1)
