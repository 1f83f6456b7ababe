# expect: GG201@22
# tensorflow: none
# fixed: ok
# shape: custom train_step in a keras.Model subclass, prediction wrapped in tf.stop_gradient before self.compute_loss
import numpy as np
import tensorflow as tf
import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, inputs, training=False):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = tf.stop_gradient(self(x, training=True))
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss}


model = Regressor()
model.compile(optimizer="adam", loss="mse")
x_train = np.random.rand(8, 3).astype("float32")
y_train = np.random.rand(8, 1).astype("float32")
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
