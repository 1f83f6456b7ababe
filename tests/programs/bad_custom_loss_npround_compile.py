# expect: GG102@13
# tensorflow: none
# fixed: ok
# shape: custom loss rounding predictions with numpy's round (imported as npround), compile(run_eagerly=True) + fit
import numpy as np
from numpy import round as npround
import tensorflow as tf
from tensorflow import keras


def rounded_mae(y_true, y_pred):
    # the labels are whole star ratings, so compare against rounded predictions
    return tf.reduce_mean(tf.abs(y_true - npround(y_pred)))


model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.SGD(0.01), loss=rounded_mae, run_eagerly=True)

x_train = np.random.rand(8, 5).astype(np.float32)
y_train = np.random.randint(1, 6, size=(8, 1)).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
