# expect: GG403@30
# tensorflow: none
# fixed: nofix
# shape: integrated gradients for a text classifier whose first layer is an Embedding: the word ids are interpolated from a baseline as a float tensor `scaled`, watched, and fed to the model; the Embedding casts its input to int32 to look the ids up, so `tape.gradient(output, scaled)` is None and the sum `total += gradients` fails (the answer in the thread: the Embedding is not differentiable with respect to its input; attribute to the word vectors instead)
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

word_ids = np.random.randint(1, vocab_size, size=(1, maxlen))
baseline = np.zeros_like(word_ids)


def integrated_gradients(model, sample, reference, outchannel, steps=8):
    total = 0.0
    for alpha in np.linspace(0.0, 1.0, steps):
        scaled = tf.constant(reference + alpha * (sample - reference), dtype=tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(scaled)
            output = model(scaled)[:, outchannel]
        gradients = tape.gradient(output, scaled)
        total += gradients
    return (sample - reference) * total / steps


explanation = integrated_gradients(model, word_ids, baseline, outchannel=1)
