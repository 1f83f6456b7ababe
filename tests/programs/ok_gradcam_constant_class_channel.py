# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/56968
# shape: Grad-CAM step where class_channel = preds[:, pred_index] is computed from last_conv_layer_output inside the tape, so tape.gradient returns the feature-map gradient
import tensorflow as tf
from tensorflow import keras

inputs = keras.Input(shape=(16, 16, 1))
conv = keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="last_conv")(inputs)
pooled = keras.layers.GlobalAveragePooling2D()(conv)
outputs = keras.layers.Dense(5)(pooled)
model = keras.Model(inputs, outputs)
grad_model = keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])

img = tf.ones([1, 16, 16, 1], tf.float32)
with tf.GradientTape() as tape:
    last_conv_layer_output, preds = grad_model(img)
    pred_index = tf.argmax(preds[0])
    class_channel = preds[:, pred_index]
    grads = tape.gradient(class_channel, last_conv_layer_output)

pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))
heatmap = tf.reduce_sum(last_conv_layer_output[0] * pooled_grads, axis=-1)
