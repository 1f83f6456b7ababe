# expect: none
# tensorflow: ok
# shape: the fix of the integrated-gradients program on a text classifier: the word ids are looked up once with the model's Embedding, the interpolation runs between the baseline's and the sample's word vectors, the watched `scaled` vectors go through the layers after the Embedding, and the attribution is summed over each word's vector; every gradient is present
# source: https://github.com/hiranumn/IntegratedGradients/issues/5
# family: 4
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

vocab_size, maxlen = 50, 6
model = keras.Sequential([
    keras.Input(shape=(maxlen,)),
    keras.layers.Embedding(vocab_size, 8),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(2, activation="softmax"),
])
embedding, head = model.layers[0], model.layers[1:]

word_ids = np.random.randint(1, vocab_size, size=(1, maxlen))
baseline = np.zeros_like(word_ids)


def integrated_gradients(sample, reference, outchannel, steps=8):
    sample_vectors = embedding(sample)
    reference_vectors = embedding(reference)
    total = tf.zeros_like(sample_vectors)
    for alpha in np.linspace(0.0, 1.0, steps):
        scaled = reference_vectors + alpha * (sample_vectors - reference_vectors)
        with tf.GradientTape() as tape:
            tape.watch(scaled)
            h = scaled
            for layer in head:
                h = layer(h)
            output = h[:, outchannel]
        gradients = tape.gradient(output, scaled)
        total += gradients
    return tf.reduce_sum((sample_vectors - reference_vectors) * total / steps, axis=-1)


explanation = integrated_gradients(word_ids, baseline, outchannel=1)
