# expect: GG310@20
# tensorflow: none
# fixed: ok
# shape: the TF2 quickstart's subclassed model with `@tf.function` written on its `call` method (the thread: results differ with and without the decorator); under Keras 3 the decorated call hides every variable read from the caller's tape, eager or traced: all gradients are None and apply_gradients raises "No gradients provided for any variable" (the same layers called without the decorator train); TensorFlow 2.21 with tf_keras (Keras 2) trains the same code, and a layer's own `add_weight` weights keep their gradient under Keras 3: only sub-layers lose theirs
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
