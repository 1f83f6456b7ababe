# expect: GG405@27
# tensorflow: raises LookupError
# fixed: nofix
# shape: adversarial perturbation of a waveform against a keyword classifier fed MFCCs from the audio ops (AudioSpectrogram, then Mfcc, as contrib_audio in TF1); tape.watch(audio) and the gradient raises LookupError: neither op has a registered gradient
# source: https://github.com/tensorflow/tensorflow/issues/40135
# family: 4
import numpy as np
import tensorflow as tf
import keras

SAMPLE_RATE = 16000
n_keywords = 4

classifier = keras.Sequential([
    keras.Input(shape=(None, 13)),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_keywords),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

audio = tf.constant(np.random.uniform(-0.5, 0.5, size=(4000, 1)).astype(np.float32))
target = np.array([2])

with tf.GradientTape() as tape:
    tape.watch(audio)
    spectrogram = tf.raw_ops.AudioSpectrogram(input=audio, window_size=512, stride=256, magnitude_squared=True)
    mfcc = tf.raw_ops.Mfcc(spectrogram=spectrogram, sample_rate=SAMPLE_RATE, dct_coefficient_count=13)
    loss = loss_fn(target, classifier(mfcc))
grad = tape.gradient(loss, audio)
adversarial = tf.clip_by_value(audio - 0.001 * tf.sign(grad), -1.0, 1.0)
