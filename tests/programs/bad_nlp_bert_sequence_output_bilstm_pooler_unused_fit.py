# expect: GG302@50
# tensorflow: none
# fixed: nofix
# shape: a token-classification head in the functional API on top of a BERT-like model (a `keras.Model` subclass standing in for `TFBertModel`, whose `call(input_ids, attention_mask=None, token_type_ids=None)` returns `(sequence_output, pooled_output)`, the pooler a Dense(tanh) on the first token): three int32 Inputs, `Bert_model(ip1, attention_mask=ip2, token_type_ids=ip3)[0][:, 1:-1, :]` into a Bidirectional LSTM, Dense, Dropout and a softmax Dense; fit warns "Gradients do not exist for variables ['tf_bert_model/bert/pooler/dense/kernel:0', ...]" since only the sequence output reaches the loss
# source: https://github.com/huggingface/transformers/issues/5427
# family: 6
# heldout: 2
import numpy as np
import tensorflow as tf
import keras
from keras.layers import LSTM, Bidirectional, Dense, Dropout, Input
from keras.models import Model

vocab_size, hidden_size, max_length = 40, 16, 8


class TFBertModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.word_embeddings = keras.layers.Embedding(vocab_size, hidden_size, name="word_embeddings")
        self.token_type_embeddings = keras.layers.Embedding(2, hidden_size, name="token_type_embeddings")
        self.encoder = keras.layers.Dense(hidden_size, activation="gelu", name="encoder")
        self.pooler = keras.layers.Dense(hidden_size, activation="tanh", name="pooler")

    def call(self, input_ids, attention_mask=None, token_type_ids=None):
        x = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        x = x * tf.cast(attention_mask, x.dtype)[..., None]
        sequence_output = self.encoder(x)
        pooled_output = self.pooler(sequence_output[:, 0])
        return sequence_output, pooled_output


ip1 = Input(shape=(max_length + 2,), dtype="int32")
ip2 = Input(shape=(max_length + 2,), dtype="int32")
ip3 = Input(shape=(max_length + 2,), dtype="int32")
Bert_model = TFBertModel(name="tf_bert_model")
ip = Bert_model(ip1, attention_mask=ip2, token_type_ids=ip3)[0][:, 1:-1, :]
out = Bidirectional(LSTM(units=hidden_size))(ip)
out = Dense(12, activation="relu")(out)
out = Dropout(0.2)(out)
out = Dense(units=9, activation="softmax")(out)
model = Model([ip1, ip2, ip3], out)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

n = 4
input_ids = np.random.randint(0, vocab_size, size=(n, max_length + 2))
attention_mask = np.ones((n, max_length + 2), dtype=np.int32)
token_type_ids = np.zeros((n, max_length + 2), dtype=np.int32)
labels = np.random.randint(0, 9, size=(n,))
model.fit([input_ids, attention_mask, token_type_ids], labels, epochs=1, verbose=0)
