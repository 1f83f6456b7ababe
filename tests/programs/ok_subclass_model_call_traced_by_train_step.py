# expect: none
# tensorflow: ok
# shape: the same quickstart model with the decorator removed from `call` (the train_step keeps its own `@tf.function`, which traces the call anyway): every variable gets its gradient
# source: https://github.com/tensorflow/tensorflow/issues/32895
# family: 7
import numpy as np
import tensorflow as tf
from tensorflow import keras


class MyModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = keras.layers.Conv2D(4, 3, activation="relu")
        self.flatten = keras.layers.Flatten()
        self.d1 = keras.layers.Dense(8, activation="relu")
        self.d2 = keras.layers.Dense(10)

    def call(self, x):
        x = self.conv1(x)
        x = self.flatten(x)
        x = self.d1(x)
        return self.d2(x)


model = MyModel()
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam()
images = np.random.rand(4, 8, 8, 1).astype("float32")
labels = np.random.randint(0, 10, size=4)
model(images)


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return gradients


train_step(images, labels)
