# expect: GG402@29
# tensorflow: none
# fixed: nofix
# shape: functional keras.Model whose custom output layer returns the argmax class as float, trained with a regression loss on the class index
# family: 3
import tensorflow as tf
import keras


class ClassIndex(keras.layers.Layer):
    def __init__(self, classes, **kwargs):
        super().__init__(**kwargs)
        self.logits = keras.layers.Dense(classes)

    def call(self, inputs):
        scores = self.logits(inputs)
        return tf.cast(tf.argmax(scores, axis=-1), tf.float32)


inputs = keras.Input(shape=(4,))
hidden = keras.layers.Dense(8, activation="relu")(inputs)
outputs = ClassIndex(3)(hidden)
model = keras.Model(inputs, outputs)
optimizer = keras.optimizers.Adam(1e-3)
x = tf.random.normal((8, 4))
y = tf.constant([0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 1.0])

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
