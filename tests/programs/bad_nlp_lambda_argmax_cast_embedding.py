# expect: GG402@21
# tensorflow: none
# fixed: nofix
# shape: encoder-decoder over token ids whose encoder output goes through Lambda(K.argmax, arguments={'axis': -1}) and Lambda(K.cast, arguments={'dtype': 'float32'}) into the decoder; the encoder's weights get None
# source: https://github.com/keras-team/keras/issues/11157
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

vocabulary = 20
latent_dim = 8
seq_len = 5

encoder_inputs = keras.Input(shape=(seq_len,))
encoder_dense = keras.layers.Dense(vocabulary, activation="softmax")
encoder_outputs = keras.layers.Embedding(vocabulary, latent_dim)(encoder_inputs)
encoder_outputs = keras.layers.LSTM(latent_dim, return_sequences=True)(encoder_outputs)
encoder_outputs = encoder_dense(encoder_outputs)
encoder_outputs = keras.layers.Lambda(K.argmax, arguments={"axis": -1})(encoder_outputs)
encoder_outputs = keras.layers.Lambda(K.cast, arguments={"dtype": "float32"})(encoder_outputs)

decoder_dense1 = keras.layers.Dense(seq_len, activation="relu")
decoder_dense2 = keras.layers.Dense(3, activation="softmax")
decoder_outputs = decoder_dense2(decoder_dense1(encoder_outputs))

model = keras.Model(encoder_inputs, decoder_outputs)
model.compile(optimizer="rmsprop", loss="categorical_crossentropy", run_eagerly=True)

train_data = np.random.randint(0, vocabulary, size=(8, seq_len))
train_label = np.eye(3, dtype=np.float32)[np.random.randint(0, 3, size=8)]
model.fit(train_data, train_label, batch_size=8, epochs=1, verbose=0)
