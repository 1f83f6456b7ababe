# expect: GG302@37
# tensorflow: none
# fixed: nofix
# shape: an encoder layer computes an auxiliary head and drops it (`_aux = self.aux(h)`, returned by nothing), and is itself a sub-layer of the model, whose two heads use only the encoder's features: asked for every variable of the model, the tape gives None for the auxiliary head's kernel and bias
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
        _aux = self.aux(h)
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
    loss = tf.reduce_mean(tf.square(prediction)) + 0.01 * tf.reduce_mean(tf.square(features))
grads = tape.gradient(loss, model.trainable_variables)
