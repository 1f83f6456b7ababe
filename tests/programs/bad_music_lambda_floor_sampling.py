# expect: GG401@16
# tensorflow: none
# fixed: ok
# shape: piano-roll output layer sampling keys with Lambda(floor_sampling), tf.floor(x + uniform noise), last layer of a Sequential trained with fit
# source: https://github.com/keras-team/keras/issues/5521
# family: 3
import numpy as np
import tensorflow as tf
import keras

N_KEYS = 88


def floor_sampling(x):
    # turns each key probability into a 0/1 press: 1 with probability x
    return tf.floor(x + tf.random.uniform(tf.shape(x), 0.0, 1.0))


model = keras.Sequential()
model.add(keras.Input(shape=(16,)))
model.add(keras.layers.Dense(32, activation="relu"))
model.add(keras.layers.Dense(N_KEYS, activation="sigmoid"))
model.add(keras.layers.Lambda(floor_sampling, output_shape=lambda s: s))
model.compile(optimizer="adam", loss="binary_crossentropy", run_eagerly=True)

x_train = np.random.rand(8, 16).astype(np.float32)
y_train = np.random.randint(0, 2, size=(8, N_KEYS)).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
