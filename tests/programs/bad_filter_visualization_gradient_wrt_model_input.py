# expect: GG312@27
# tensorflow: raises AttributeError
# fixed: nofix
# shape: porting the Keras 2 filter-visualization recipe (loss = mean of one filter of model.get_layer('block3_conv1').output, grads = K.gradients(loss, model.input)[0]) to TF 2 by wrapping the same line in a GradientTape: both the loss and model.input are symbolic KerasTensors of the functional graph, nothing ran on the tape, and TF 2.4 raised "'KerasTensor' object has no attribute '_id'" (TF 2.21 with Keras 3 too); the gradient has to come from a feature-extractor model called on a watched image inside the tape
# source: https://github.com/tensorflow/tensorflow/issues/46194
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(16, 16, 3))
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="block1_conv1")(inputs)
x = keras.layers.MaxPooling2D()(x)
x = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="block2_conv1")(x)
x = keras.layers.MaxPooling2D()(x)
x = keras.layers.Conv2D(16, 3, padding="same", activation="relu", name="block3_conv1")(x)
model = keras.Model(inputs, x)

layer_name = "block3_conv1"
filter_index = 0

layer_output = model.get_layer(layer_name).output
loss = keras.ops.mean(layer_output[:, :, :, filter_index])

grads = None
with tf.GradientTape() as gtape:
    grads = gtape.gradient(loss, model.input)[0]

input_img_data = np.random.random((1, 16, 16, 3)).astype(np.float32) * 20 + 128.0
