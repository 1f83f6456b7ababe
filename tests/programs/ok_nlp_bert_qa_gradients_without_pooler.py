# expect: none
# tensorflow: ok
# shape: the way out of the BERT pooler warning: the pooler is not used by the question-answering heads, so the gradient is asked only for the variables the loss reaches, `[v for v in model.trainable_variables if "pooler" not in v.path]`; every requested gradient exists
# source: https://github.com/huggingface/transformers/issues/2256
# family: 6
# heldout: 1
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

loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(3e-5)
with tf.GradientTape() as tape:
    start_logits, end_logits = model(input_ids, training=True)
    loss = (loss_fn(start_positions, start_logits) + loss_fn(end_positions, end_logits)) / 2
trained = [v for v in model.trainable_variables if "pooler" not in v.path]
grads = tape.gradient(loss, trained)
optimizer.apply_gradients(zip(grads, trained))
