# expect: GG302@49
# tensorflow: none
# fixed: nofix
# shape: the question-answering model of transformers#2256 (a BERT-like main layer returning `(sequence_output, pooled_output)`, QA heads on `outputs[0]` only) trained with `compile` + `fit` instead of a tape: Keras asks for every variable and warns "Gradients do not exist for variables ['.../bert/pooler/kernel', '.../bert/pooler/bias']"
# source: https://github.com/huggingface/transformers/issues/2256
# family: 6
import numpy as np
import tensorflow as tf
import keras

vocab_size, hidden_size, seq_len = 50, 16, 10


class TFBertMainLayer(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.embeddings = keras.layers.Embedding(vocab_size, hidden_size, name="embeddings")
        self.encoder = keras.layers.Dense(hidden_size, activation="gelu", name="encoder")
        self.pooler = keras.layers.Dense(hidden_size, activation="tanh", name="pooler")

    def call(self, input_ids):
        sequence_output = self.encoder(self.embeddings(input_ids))
        pooled_output = self.pooler(sequence_output[:, 0])
        return sequence_output, pooled_output


class TFBertForQuestionAnswering(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bert = TFBertMainLayer(name="bert")
        self.start = keras.layers.Dense(1, name="start")
        self.end = keras.layers.Dense(1, name="end")

    def call(self, inputs):
        outputs = self.bert(inputs)
        sequence_output = outputs[0]
        start_logits = tf.squeeze(self.start(sequence_output), -1)
        end_logits = tf.squeeze(self.end(sequence_output), -1)
        return start_logits, end_logits


model = TFBertForQuestionAnswering()
input_ids = np.random.randint(0, vocab_size, size=(8, seq_len))
start_positions = np.random.randint(0, seq_len, size=(8,))
end_positions = np.random.randint(0, seq_len, size=(8,))
model(input_ids)

model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(input_ids, (start_positions, end_positions), epochs=1, verbose=0)
