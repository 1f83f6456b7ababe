# expect: GG312@22
# tensorflow: raises AttributeError
# fixed: nofix
# shape: to get the gradient of the prediction with respect to the first hidden layer, a Sequential model's `model.layers[0].output` is used as the source of tape.gradient while the tape records model(x) on a real batch: that output is the symbolic KerasTensor of the model's graph, not a tensor of this forward pass; the thread's Keras 2 K.gradients returned None, TF 2.21 with Keras 3 raises AttributeError "'KerasTensor' object has no attribute '_id'"
# source: https://github.com/keras-team/keras/issues/13499
# heldout: 4
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(100,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(10, activation="relu"),
    keras.layers.Dense(10, activation="softmax"),
])
x = np.random.rand(2, 100).astype(np.float32)
first_layer_output = model.layers[0].output

with tf.GradientTape() as tape:
    prediction = model(x)
gradient = tape.gradient(prediction, first_layer_output)
