# expect: none
# tensorflow: ok
# shape: Grad-CAM the TF 2 way: a heatmap model is built as Model([model.inputs], [conv_layer.output, model.output]) (symbolic tensors, used only to wire a new functional model), then called on a real image inside the tape; the loss is the top predicted class score and tape.gradient(loss, conv_output) differentiates with respect to the conv output of this call, which the tape recorded
# source: https://github.com/tensorflow/tensorflow/issues/33135
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(16, 16, 3))
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="block1_conv1")(inputs)
x = keras.layers.MaxPooling2D()(x)
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="block3_conv1")(x)
x = keras.layers.GlobalAveragePooling2D()(x)
model = keras.Model(inputs, keras.layers.Dense(5, activation="softmax")(x))

img_tensor = np.random.rand(1, 16, 16, 3).astype(np.float32)

conv_layer = model.get_layer("block3_conv1")
heatmap_model = keras.Model([model.inputs], [conv_layer.output, model.output])

with tf.GradientTape() as gtape:
    conv_output, predictions = heatmap_model(img_tensor)
    loss = predictions[:, np.argmax(predictions[0])]
    grads = gtape.gradient(loss, conv_output)

pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))
heatmap = tf.reduce_mean(conv_output * pooled_grads, axis=-1)
