# expect: GG312@24 GG312@26
# tensorflow: raises ValueError
# fixed: nofix
# shape: a train_step wants the gradient of the loss with respect to the model input and calls tape.watch(model.inputs), then tape.gradient(loss, model.inputs): model.inputs are the symbolic Keras inputs of the functional model, not the batch; the poster (TF 2.0 beta) got [None] wherever the watch went, while TF 2.21 with Keras 3 raises at the watch, ValueError "Passed in object <KerasTensor ...> of type 'KerasTensor', not tf.Tensor or tf.Variable"
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

images = np.random.rand(4, 6).astype(np.float32)
labels = np.random.randint(0, 3, size=(4,))


def train_step(images, labels):
    with tf.GradientTape(persistent=True) as tape:
        predictions = model(images)
        tape.watch(model.inputs)
        loss = loss_object(labels, predictions)
    input_grads = tape.gradient(loss, model.inputs)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return input_grads


train_step(images, labels)
