# expect: none
# tensorflow: ok
# shape: the workaround from the same thread: the layers of the Sequential model are called one by one inside the tape and every output is appended to a list, so outputs[2] is the real tensor the Dense layer produced for this batch and tape.gradient(loss, outputs[2]) returns its gradient; a second persistent-tape call trains the variables
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
optimizer = keras.optimizers.SGD(0.01)

images = np.random.rand(8, 28, 28).astype(np.float32)
labels = np.random.randint(0, 10, size=(8,))

outputs = [images]
with tf.GradientTape(persistent=True) as tape:
    for layer in model.layers:
        outputs.append(layer(outputs[-1]))
    loss = loss_object(labels, outputs[-1])

dense_output_grad = tape.gradient(loss, outputs[2])
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
del tape
