# expect: GG101@11
# tensorflow: none
# fixed: ok
# shape: custom Keras loss calling .numpy() on y_pred, compile(run_eagerly=True) + fit
import numpy as np
import tensorflow as tf
import keras


def weighted_mse(y_true, y_pred):
    errors = y_true - y_pred.numpy()
    return tf.reduce_mean(tf.square(errors) * 2.0)


model = keras.Sequential([
    keras.Input(shape=(3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
model.compile(optimizer="adam", loss=weighted_mse, run_eagerly=True)

x_train = np.random.rand(8, 3).astype("float32")
y_train = np.random.rand(8, 1).astype("float32")
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
