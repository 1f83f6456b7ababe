# expect: GG102@48
# tensorflow: none
# fixed: nofix
# shape: text GAN in a custom loop: an LSTM generator predicts a softmax over the vocabulary for the next word, `np.argmax` picks the word id and `pad_sequences` pads it to the discriminator's input length, and an Embedding + bidirectional LSTM discriminator scores it; gradients_of_generator is [None, ...] (the poster: "gradients always [None]")
# source: https://github.com/keras-team/tf-keras/issues/293
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras
from keras import layers
from keras.utils import pad_sequences

total_words = 40
max_sequence_length = 8
batch_size = 4

generator = keras.Sequential(
    [
        keras.Input(shape=(max_sequence_length - 1,)),
        layers.Embedding(total_words, 16),
        layers.LSTM(16, return_sequences=True),
        layers.LSTM(8),
        layers.Dropout(0.1),
        layers.Dense(total_words // 4),
        layers.Dense(total_words, activation="softmax"),
    ],
    name="generator",
)
discriminator = keras.Sequential(
    [
        keras.Input(shape=(max_sequence_length - 1,)),
        layers.Embedding(total_words, 16),
        layers.Bidirectional(layers.LSTM(8)),
        layers.Dropout(0.2),
        layers.Dense(8, activation="relu"),
        layers.Dense(1, activation="sigmoid"),
    ],
    name="discriminator",
)
cross_entropy = keras.losses.BinaryCrossentropy()
generator_optimizer = keras.optimizers.Adam(0.01)
text = np.random.randint(1, total_words, size=(batch_size, max_sequence_length - 1))

with tf.GradientTape() as gen_tape:
    predicted_next_word = generator(text, training=True)
    pred_to_word = pad_sequences(
        np.argmax(predicted_next_word, axis=-1)[:, None], maxlen=max_sequence_length - 1, padding="pre"
    )
    fake_output = discriminator(pred_to_word, training=True)
    gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
