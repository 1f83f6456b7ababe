# expect: none
# tensorflow: ok
# shape: Keras 3 "customizing fit()" guide: train_step with self.compute_loss inside the tape, argmax only for a metric, fit on numpy arrays
import numpy as np
import keras
import tensorflow as tf


class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.acc_tracker = keras.metrics.Mean(name="acc")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
            hits = tf.cast(tf.equal(tf.argmax(y_pred, axis=-1), tf.cast(y, tf.int64)), tf.float32)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        self.acc_tracker.update_state(tf.reduce_mean(hits))
        return {"loss": loss, "acc": self.acc_tracker.result()}

    @property
    def metrics(self):
        return [self.acc_tracker]


inputs = keras.Input(shape=(6,))
h = keras.layers.Dense(8, activation="relu")(inputs)
outputs = keras.layers.Dense(3)(h)
model = CustomModel(inputs, outputs)
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

x = np.random.random((8, 6)).astype("float32")
y = np.random.randint(0, 3, size=(8,))
history = model.fit(x, y, epochs=1, batch_size=8, verbose=0)
print(history.history)
