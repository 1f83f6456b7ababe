# expect: GG401@15
# tensorflow: none
# fixed: ok
# shape: custom loss comparing keras.ops.round(y_pred) (K.round in Keras 2) with the labels, given to compile(loss=...) and trained with fit
# source: https://github.com/keras-team/keras/issues/4175
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K


def rounded_error(y_true, y_pred):
    # penalise only predictions that would be classified wrongly
    errors = K.abs(y_true - K.round(y_pred))
    return K.mean(errors)


model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(12, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer="sgd", loss=rounded_error, run_eagerly=True)

x_train = np.random.rand(8, 6).astype(np.float32)
y_train = np.random.randint(0, 2, size=(8, 1)).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
