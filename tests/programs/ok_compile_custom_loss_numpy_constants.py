# expect: none
# tensorflow: ok
# shape: custom loss given to compile(): TF ops on y_pred, numpy only on constants (np.log(2.0), np.array class weights built in __init__) — after a Keras custom-loss Q&A
import numpy as np
import tensorflow as tf
from tensorflow import keras

LOG2 = np.log(2.0)
class_weights = np.array([1.0, 2.0, 0.5], dtype=np.float32)


def weighted_cce_bits(y_true, y_pred):
    y_pred = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
    w = tf.constant(class_weights) * np.float32(1.0)
    nats = -tf.reduce_sum(y_true * w * tf.math.log(y_pred), axis=-1)
    return nats / np.float32(LOG2)


class ScaledMSE(keras.losses.Loss):
    def __init__(self, scale=np.sqrt(2.0), name="scaled_mse"):
        super().__init__(name=name)
        self.scale = float(scale)

    def call(self, y_true, y_pred):
        return self.scale * tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)


inp = keras.Input((5,))
h = keras.layers.Dense(8, activation="relu")(inp)
cls = keras.layers.Dense(3, activation="softmax", name="cls")(h)
reg = keras.layers.Dense(1, name="reg")(h)
model = keras.Model(inp, [cls, reg])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=[weighted_cce_bits, ScaledMSE()])

x = np.random.rand(8, 5).astype("float32")
y_cls = keras.utils.to_categorical(np.random.randint(0, 3, 8), 3)
y_reg = np.random.rand(8, 1).astype("float32")
hist = model.fit(x, [y_cls, y_reg], batch_size=8, epochs=1, verbose=0)
print({k: round(float(v[-1]), 4) for k, v in hist.history.items()})
