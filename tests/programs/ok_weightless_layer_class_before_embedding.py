# expect: none
# tensorflow: ok
# shape: a Keras layer of the program that makes no weights (a vocabulary lookup table, handson-ml2's `TextVectorization`) feeds an `Embedding` in a `Sequential`: nothing before the `Embedding` has anything to train, so nothing is lost. A class was taken to have weights: a false GG403 (handson-ml2's chapter 13, never run before)
# family: 3
import numpy as np
import tensorflow as tf
from tensorflow import keras


def get_vocabulary(data_sample, max_size):
    return sorted({w for line in data_sample for w in line.split()})[:max_size]


class TextVectorization(keras.layers.Layer):
    def __init__(self, max_vocabulary_size=1000, n_oov_buckets=100, dtype=tf.string, **kwargs):
        super().__init__(dtype=dtype, **kwargs)
        self.max_vocabulary_size = max_vocabulary_size
        self.n_oov_buckets = n_oov_buckets

    def adapt(self, data_sample):
        self.vocab = get_vocabulary(data_sample, self.max_vocabulary_size)
        words = tf.constant(self.vocab)
        word_ids = tf.range(len(self.vocab), dtype=tf.int64)
        vocab_init = tf.lookup.KeyValueTensorInitializer(words, word_ids)
        self.table = tf.lookup.StaticVocabularyTable(vocab_init, self.n_oov_buckets)

    def call(self, inputs):
        return self.table.lookup(tf.strings.split(inputs).to_tensor(default_value=b"<pad>"))


reviews = np.array(["a good movie", "a bad movie", "good good", "bad"])
labels = np.array([1.0, 0.0, 1.0, 0.0], dtype=np.float32)
text_vectorization = TextVectorization(10, 2)
text_vectorization.adapt(reviews)
model = keras.Sequential([
    text_vectorization,
    keras.layers.Embedding(input_dim=12, output_dim=4, mask_zero=True),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(loss="binary_crossentropy", optimizer="sgd")
model.fit(tf.constant(reviews), labels, epochs=1, verbose=0)
