# expect: none
# tensorflow: ok
# shape: the answer to "stop the backpropagation from CNN to Inception, the Inception just gets the gradients from LSTM": the shared Inception features feed an LSTM head directly and a CNN head through `Lambda(K.stop_gradient)` (`keras.ops.stop_gradient` here: Keras 3 has no `keras.backend.stop_gradient`); the CNN head's loss trains the CNN only, the LSTM head's loss trains the LSTM and the Inception, and every variable gets a gradient
# source: https://github.com/keras-team/keras/issues/11460
# family: 3
# heldout: 1
import numpy as np
import keras
from keras import layers

frames, height, width = 4, 8, 8

input = keras.Input(shape=(frames, height, width, 3))
inception = keras.Sequential([
    keras.Input(shape=(height, width, 3)),
    layers.Conv2D(4, 3, padding="same", activation="relu"),
    layers.GlobalAveragePooling2D(),
], name="inception")
cnn = keras.Sequential([
    keras.Input(shape=(frames, 4)),
    layers.Conv1D(4, 2, activation="relu"),
    layers.Flatten(),
    layers.Dense(2, activation="softmax"),
], name="cnn")
lstm = keras.Sequential([
    keras.Input(shape=(frames, 4)),
    layers.LSTM(6),
    layers.Dense(2, activation="softmax"),
], name="lstm")

inception_out = layers.TimeDistributed(inception)(input)
cnn_input = layers.Lambda(keras.ops.stop_gradient)(inception_out)
cnn_out = cnn(cnn_input)
lstm_out = lstm(inception_out)
model = keras.Model(input, [cnn_out, lstm_out])
model.compile(optimizer="adam", loss=["categorical_crossentropy", "categorical_crossentropy"])

clips = np.random.rand(4, frames, height, width, 3).astype(np.float32)
labels = keras.utils.to_categorical(np.random.randint(0, 2, size=4), 2)
model.fit(clips, [labels, labels], batch_size=4, epochs=1, verbose=0)
