# expect: none
# tensorflow: ok
# shape: the auxiliary head of the encoder layer is not returned but feeds `self.add_loss(...)`, and the training step adds `sum(model.losses)` to its loss: every variable, the auxiliary head's too, gets its gradient
# family: 6
import tensorflow as tf
import keras


class Encoder(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.body = keras.layers.Dense(8, activation="relu")
        self.aux = keras.layers.Dense(2)

    def call(self, x):
        h = self.body(x)
        self.add_loss(0.1 * tf.reduce_mean(tf.square(self.aux(h))))
        return h, h[:, :4]


class TwoHeads(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.head = keras.layers.Dense(1)

    def call(self, x):
        features = self.encoder(x)[0]
        return self.head(features), features


model = TwoHeads()
with tf.GradientTape() as tape:
    prediction, features = model(tf.random.normal((4, 3)))
    loss = tf.reduce_mean(tf.square(prediction)) + 0.01 * tf.reduce_mean(tf.square(features)) + sum(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
