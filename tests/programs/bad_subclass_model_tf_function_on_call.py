# expect: GG405@40
# tensorflow: none
# fixed: nofix
# shape: the TF2 quickstart's subclassed model with `@tf.function` written on its `call` method (the thread: results differ with and without the decorator); under Keras 3 the decorated call hides every variable read from the caller's tape, eager or traced: all gradients are None and apply_gradients raises "No gradients provided for any variable" (the same layers called without the decorator train); no rule names a traced `call` yet, GG405 is the nearest code
# source: https://github.com/tensorflow/tensorflow/issues/32895
# family: 7
# gap: no rule knows that `@tf.function` on a Keras 3 model's `call` hides the variable reads from the caller's tape
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

    @tf.function
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
