# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/26404
# shape: eager ResNet-style subclassed model with BatchNormalization; tape.gradient(loss, model.trainable_variables) asks only for trainable weights, all of which get gradients
# heldout: 7
import tensorflow as tf
from tensorflow import keras


class ResBlock(keras.Model):
    def __init__(self, filters):
        super().__init__()
        self.conv1 = keras.layers.Conv2D(filters, 3, padding="same")
        self.bn1 = keras.layers.BatchNormalization()
        self.conv2 = keras.layers.Conv2D(filters, 3, padding="same")
        self.bn2 = keras.layers.BatchNormalization()
        self.head = keras.layers.Dense(3)
        self.pool = keras.layers.GlobalAveragePooling2D()

    def call(self, x, training=False):
        h = tf.nn.relu(self.bn1(self.conv1(x), training=training))
        h = self.bn2(self.conv2(h), training=training)
        return self.head(self.pool(tf.nn.relu(h + x)))


def compute_loss(prediction, label):
    return tf.reduce_mean(tf.square(prediction - label))


model = ResBlock(4)
optimizer = keras.optimizers.SGD(0.01)
x = tf.random.normal([2, 8, 8, 4])
label = tf.random.normal([2, 3])

with tf.GradientTape() as tape:
    prediction = model(x, training=True)
    loss = compute_loss(prediction, label)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
