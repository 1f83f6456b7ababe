# expect: GG401@54
# tensorflow: none
# fixed: ok
# shape: Luong-style local attention ("local-p") in a custom Keras layer of a seq2seq decoder: the aligned position is predicted as `pt = S * sigmoid(vp . tanh(Wp h_t))`, then cut to its integer part with `tf.floor` before the Gaussian window around it reweights the attention; floor has no gradient, so the window-prediction weights `Wp` and `AttnVp_0` get None while the scoring and output weights train ("No gradients for those params during predicting aligned position")
# source: https://github.com/giancds/tsf_nmt/issues/2
# family: 5
# heldout: 2
import numpy as np
import tensorflow as tf
import keras

batch_size, attn_length, hidden = 4, 7, 8


class LocalAttention(keras.layers.Layer):
    def __init__(self, attn_length, attention_vec_size, window=2, **kwargs):
        super().__init__(**kwargs)
        self.attn_length = attn_length
        self.sigma = window / 2.0
        self.window_prediction = keras.layers.Dense(attention_vec_size, name="WindowPrediction")
        self.score = keras.layers.Dense(hidden, use_bias=False, name="AttnW")
        self.attention_vec_size = attention_vec_size

    def build(self, input_shape):
        self.vp = self.add_weight(name="AttnVp_0", shape=(self.attention_vec_size,), initializer="glorot_uniform")

    def call(self, decoder_hidden_state, encoder_states):
        ht = self.window_prediction(decoder_hidden_state)
        # tanh(Wp*ht)
        tanh = tf.tanh(ht)
        # S * sigmoid(vp * tanh(Wp*ht)): one position per sentence of the batch
        S = float(self.attn_length)
        pt = tf.reduce_sum(self.vp * tanh, axis=1, keepdims=True)
        pt = tf.sigmoid(pt) * S
        # now we get only the integer part of the values
        pt = tf.floor(pt)
        idx = tf.cast(tf.range(self.attn_length), tf.float32)[None, :]
        gaussian = tf.exp(-tf.square(idx - pt) / (2.0 * self.sigma ** 2))
        scores = tf.einsum("bh,bsh->bs", self.score(decoder_hidden_state), encoder_states)
        a = tf.nn.softmax(scores) * gaussian
        return tf.einsum("bs,bsh->bh", a, encoder_states)


attention = LocalAttention(attn_length, attention_vec_size=6)
output_layer = keras.layers.Dense(5)
decoder_hidden_state = tf.random.normal((batch_size, hidden))
encoder_states = tf.random.normal((batch_size, attn_length, hidden))
targets = np.random.randint(0, 5, size=(batch_size,))
attention(decoder_hidden_state, encoder_states)
output_layer.build((None, hidden))
variables = attention.trainable_variables + output_layer.trainable_variables

with tf.GradientTape() as tape:
    context = attention(decoder_hidden_state, encoder_states)
    logits = output_layer(tf.concat([context], axis=-1))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits))
grads = tape.gradient(loss, variables)
keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
