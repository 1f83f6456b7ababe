# expect: none
# tensorflow: ok
# shape: a subclassed ranking model looks tokens up with its own StringLookup sub-layer, embeds the ids and scores them (after tensorflow/ranking's antique example); the lookup has no weights, the embedding and the tower train
import tensorflow as tf


class TokenRanker(tf.keras.Model):
    def __init__(self, vocabulary):
        super().__init__()
        self._lookup = tf.keras.layers.StringLookup(vocabulary=vocabulary, num_oov_indices=1, mask_token=None)
        self._embedding = tf.keras.layers.Embedding(input_dim=len(vocabulary) + 1, output_dim=4)
        self._tower = tf.keras.layers.Dense(1)

    def call(self, tokens):
        token_ids = self._lookup(tokens)
        embeddings = tf.reduce_mean(self._embedding(token_ids), axis=1)
        return self._tower(embeddings)


model = TokenRanker(["good", "bad", "answer", "question"])
model.compile(optimizer="adagrad", loss="mse")
tokens = tf.constant([["good", "answer"], ["bad", "question"]])
model.fit(tokens, tf.constant([[1.0], [0.0]]), epochs=1, verbose=0)
