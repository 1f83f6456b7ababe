# expect: GG311@34
# tensorflow: ok
# fixed: differs
# shape: the TF2 "advanced quickstart" subclassed MyModel with activity_regularizer=l2(100000.) on its Conv2D and Dense layers, trained by the tutorial's custom GradientTape step whose loss is loss_object(labels, predictions) alone: the huge activity penalties sit in model.losses and have no effect on training (gradients all exist, none includes the penalty)
# source: https://github.com/tensorflow/tensorflow/issues/33219
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class MyModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = keras.layers.Conv2D(4, 3, activation="relu", activity_regularizer=keras.regularizers.l2(100000.0))
        self.flatten = keras.layers.Flatten()
        self.d1 = keras.layers.Dense(8, activation="relu", activity_regularizer=keras.regularizers.l2(100000.0))
        self.d2 = keras.layers.Dense(10, activation="softmax", activity_regularizer=keras.regularizers.l2(100000.0))

    def call(self, x):
        return self.d2(self.d1(self.flatten(self.conv1(x))))


model = MyModel()
loss_object = keras.losses.SparseCategoricalCrossentropy()
optimizer = keras.optimizers.Adam()

images = np.random.rand(4, 8, 8, 1).astype(np.float32)
labels = np.random.randint(0, 10, size=(4,))

with tf.GradientTape() as tape:
    predictions = model(images, training=True)
    loss = loss_object(labels, predictions)
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
