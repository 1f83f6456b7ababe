# expect: GG101@29
# tensorflow: none
# fixed: ok
# shape: keras.Model subclass whose `call` turns its head's logits into numpy before the softmax, called directly in the tape
# family: 3
import numpy as np
import tensorflow as tf
import keras


class Classifier(keras.Model):
    def __init__(self, classes):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.head = keras.layers.Dense(classes)

    def call(self, inputs):
        logits = self.head(self.hidden(inputs))
        return tf.nn.softmax(logits.numpy())


model = Classifier(3)
optimizer = keras.optimizers.Adam(1e-3)
x = tf.random.normal((8, 4))
labels = tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3)
model(x)

with tf.GradientTape() as tape:
    probs = model(x, training=True)
    loss = tf.reduce_mean(keras.losses.categorical_crossentropy(labels, probs))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
