# expect: none
# tensorflow: ok
# shape: the same keras.Model subclass with the softmax taken on the logits tensor, and `.numpy()` only to log the probabilities after the step
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
        return tf.nn.softmax(logits)


model = Classifier(3)
optimizer = keras.optimizers.Adam(1e-3)
x = tf.random.normal((8, 4))
labels = tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3)

with tf.GradientTape() as tape:
    probs = model(x, training=True)
    loss = tf.reduce_mean(keras.losses.categorical_crossentropy(labels, probs))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
print("mean top probability", np.max(probs.numpy(), axis=1).mean())
