# expect: GG301@35
# tensorflow: none
# fixed: nofix
# shape: ensemble adversarial training's CNN: the epoch loop calls `logits = model(image_batch)` and hands the finished logits to `train_step(logits, labels)`, which opens `cnn_tape` around the loss only; the model call ran before the tape existed, so `cnn_optimizer.apply_gradients` raises "No gradients provided for any variable: ['cnn_model_2/conv2d_6/kernel:0', ...]"
# source: https://github.com/ftramer/ensemble-adv-training/issues/4
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
cross_entropy = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
cnn_optimizer = keras.optimizers.Adam(1e-4)


def train_step(logits, labels):
    with tf.GradientTape() as cnn_tape:
        loss = cross_entropy(labels, logits)
    gradient_of_cnn = cnn_tape.gradient(loss, model.trainable_variables)
    cnn_optimizer.apply_gradients(zip(gradient_of_cnn, model.trainable_variables))


train_dataset = tf.data.Dataset.from_tensor_slices(np.random.rand(8, 8, 8, 1).astype("float32")).batch(4)
train_labels_dataset = tf.data.Dataset.from_tensor_slices(np.random.randint(0, 10, size=8)).batch(4)


def train(train_dataset, train_labels_dataset, epochs):
    for epoch in range(epochs):
        for image_batch, label_batch in zip(train_dataset, train_labels_dataset):
            logits = model(image_batch)
            labels = label_batch
            train_step(logits, labels)


train(train_dataset, train_labels_dataset, 1)
