# expect: GG312@27
# tensorflow: raises AttributeError
# fixed: nofix
# shape: to get the loss gradient with respect to a Dense layer's output, the tape records predictions = model(images) on an MNIST-like batch and asks tape.gradient(loss, model.layers[1].output); that property is the symbolic KerasTensor of the Sequential model's graph, not the tensor this forward pass produced (the poster's TF 2.0 printed None; TF 2.21 with Keras 3 raises AttributeError "'KerasTensor' object has no attribute '_id'")
# source: https://github.com/tensorflow/tensorflow/issues/33478
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(28, 28)),
    keras.layers.Flatten(),
    keras.layers.Dense(32),
    keras.layers.ReLU(),
    keras.layers.Dense(10),
])
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

images = np.random.rand(8, 28, 28).astype(np.float32)
labels = np.random.randint(0, 10, size=(8,))

with tf.GradientTape() as tape:
    predictions = model(images)
    loss = loss_object(labels, predictions)

print(tape.gradient(loss, model.layers[1].output))
