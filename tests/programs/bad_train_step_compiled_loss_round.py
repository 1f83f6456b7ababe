# expect: GG401@22
# tensorflow: none
# fixed: ok
# shape: custom train_step in a keras.Model subclass rounding y_pred before self.compiled_loss
import numpy as np
import tensorflow as tf
from tensorflow import keras


class CountModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense1 = keras.layers.Dense(8, activation="relu")
        self.dense2 = keras.layers.Dense(1, activation="softplus")

    def call(self, inputs):
        return self.dense2(self.dense1(inputs))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = tf.math.rint(self(x, training=True))
            loss = self.compiled_loss(y, y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = CountModel()
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mae")
x_train = np.random.rand(8, 4).astype(np.float32)
y_train = np.random.randint(0, 5, size=(8, 1)).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
