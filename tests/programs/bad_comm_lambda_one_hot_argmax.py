# expect: GG402@18
# tensorflow: none
# fixed: nofix
# shape: communication autoencoder whose relay decodes the signal with a Lambda(decodeSignal): softmax then K.one_hot(K.argmax(x)); the model output is that one-hot vector
# source: https://github.com/keras-team/keras/issues/9169
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

M = 8


def decodeSignal(x):
    # the symbol the relay believes was sent, as a one-hot vector
    x = K.softmax(x)
    Y = K.one_hot(K.argmax(x, axis=-1), M)
    return Y


input_layer = keras.Input(shape=(M,))
relay = keras.layers.Dense(M, activation="relu")(input_layer)
relay = keras.layers.Dense(M)(relay)
relay_softmax = keras.layers.Lambda(decodeSignal, output_shape=(M,))(relay)

model = keras.Model(input_layer, relay_softmax)
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.001), loss="categorical_crossentropy", run_eagerly=True)

onehot_symbols = np.eye(M, dtype=np.float32)[np.random.randint(0, M, size=8)]
model.fit(onehot_symbols, onehot_symbols, batch_size=8, epochs=1, shuffle=True, verbose=0)
