# expect: none
# tensorflow: ok
# shape: seq2seq decoder without teacher forcing: each step's softmax output goes through a Lambda lookup (K.argmax) and the word embedding into the next step; Keras 2 raised "An operation has None for gradient", in Keras 3 the argmax only cuts the feedback path and every weight (the embedding too, through its lookup) still gets a gradient
# source: https://github.com/keras-team/keras/issues/9837
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

vocab, latent_dim, steps = 10, 8, 3

word_embedding = keras.layers.Embedding(vocab, latent_dim)


def lookup_word(o_t):
    # index of the predicted word: the next decoder input
    return K.argmax(o_t, axis=-1)


encoder_inputs = keras.Input(shape=(5, latent_dim))
_, state_h, state_c = keras.layers.LSTM(latent_dim, return_state=True)(encoder_inputs)
start = keras.Input(shape=(1, latent_dim))

decoder_lstm = keras.layers.LSTM(latent_dim, return_state=True)
output_layer = keras.layers.Dense(vocab, activation="softmax")
lookup = keras.layers.Lambda(lookup_word, output_shape=())
reshape = keras.layers.Reshape((1, latent_dim))

input_, states, outputs = start, [state_h, state_c], []
for _ in range(steps):
    o_t, h, c = decoder_lstm(input_, initial_state=states)
    o_t = output_layer(o_t)
    outputs.append(o_t)
    converter_o_t = word_embedding(lookup(o_t))
    input_, states = reshape(converter_o_t), [h, c]

to_step = keras.layers.Reshape((1, vocab))
decoder_outputs = keras.layers.Concatenate(axis=1)([to_step(o) for o in outputs])
model = keras.Model([encoder_inputs, start], decoder_outputs)
model.compile(optimizer="adam", loss="categorical_crossentropy", run_eagerly=True)

source = np.random.rand(4, 5, latent_dim).astype(np.float32)
start_token = np.zeros((4, 1, latent_dim), dtype=np.float32)
targets = np.eye(vocab, dtype=np.float32)[np.random.randint(0, vocab, size=(4, steps))]
model.fit([source, start_token], targets, batch_size=4, epochs=1, verbose=0)
