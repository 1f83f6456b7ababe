# expect: none
# tensorflow: ok
# shape: the same waveform attack with the MFCC front end written in differentiable TensorFlow (tf.signal.stft, a mel weight matrix, tf.signal.mfccs_from_log_mel_spectrograms), as the attack code the thread points to does: the gradient reaches the audio
# source: https://github.com/carlini/audio_adversarial_examples/issues/39
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
mel_matrix = tf.signal.linear_to_mel_weight_matrix(40, 257, SAMPLE_RATE, 20.0, 4000.0)

audio = tf.constant(np.random.uniform(-0.5, 0.5, size=(1, 4000)).astype(np.float32))
target = np.array([2])

with tf.GradientTape() as tape:
    tape.watch(audio)
    power = tf.abs(tf.signal.stft(audio, frame_length=512, frame_step=256)) ** 2
    log_mel = tf.math.log(tf.tensordot(power, mel_matrix, 1) + 1e-6)
    mfcc = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
    loss = loss_fn(target, classifier(mfcc))
grad = tape.gradient(loss, audio)
adversarial = tf.clip_by_value(audio - 0.001 * tf.sign(grad), -1.0, 1.0)
