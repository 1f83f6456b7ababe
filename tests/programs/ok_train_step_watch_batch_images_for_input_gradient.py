# expect: none
# tensorflow: ok
# shape: the maintainer's answer to the model.inputs thread: convert the batch to a tensor, tape.watch(images) (the batch, not model.inputs) before the forward pass, and ask the tape for the gradient with respect to the images alongside the model's variables
# source: https://github.com/tensorflow/tensorflow/issues/31264
# heldout: 4
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(6,))
hidden = keras.layers.Dense(8, activation="relu")(inputs)
model = keras.Model(inputs, keras.layers.Dense(3)(hidden))
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam()

batch = np.random.rand(4, 6).astype(np.float32)
labels = np.random.randint(0, 3, size=(4,))


def train_step(images, labels):
    images = tf.convert_to_tensor(images)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(images)
        predictions = model(images)
        loss = loss_object(labels, predictions)
    input_grads = tape.gradient(loss, images)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return input_grads


train_step(batch, labels)
