# expect: GG401@16
# tensorflow: none
# fixed: ok
# shape: functional model clipping and rounding an intermediate layer with Lambda(lambda x: K.round(K.clip(x, 0, 1))) before a merge layer; the branch before the Lambda gets None
# source: https://github.com/keras-team/keras/issues/5107
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

inputs = keras.Input(shape=(10,))
hidden = keras.layers.Dense(16, activation="relu")(inputs)
code = keras.layers.Dense(4, activation="sigmoid")(hidden)
# binary code for the intermediate representation
binary = keras.layers.Lambda(lambda x: K.round(K.clip(x, 0.0, 1.0)))(code)
side = keras.layers.Dense(4, activation="relu")(inputs)
merged = keras.layers.Concatenate()([binary, side])
outputs = keras.layers.Dense(1)(merged)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="mse", run_eagerly=True)

x_train = np.random.rand(8, 10).astype(np.float32)
y_train = np.random.rand(8, 1).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
