# expect: GG402@33
# tensorflow: none
# fixed: nofix
# shape: sequence GAN whose combined model feeds K.argmax(generator output) to a frozen discriminator (discriminator.trainable = False); the generator is the only trainable part and gets no gradient
# source: https://github.com/tensorflow/tensorflow/issues/52260
# family: 4
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

timestep = 6
vocab = 12

generator = keras.Sequential([
    keras.Input(shape=(timestep,)),
    keras.layers.Dense(timestep * vocab),
    keras.layers.Reshape((timestep, vocab)),
    keras.layers.Softmax(),
])
discriminator = keras.Sequential([
    keras.Input(shape=(timestep,)),
    keras.layers.Embedding(vocab, 4),
    keras.layers.Flatten(),
    keras.layers.Dense(1, activation="sigmoid"),
])


def define_gan(g_model, d_model, timestep):
    d_model.trainable = False
    a = keras.Input(shape=(timestep,))
    b = g_model(a)
    c = K.argmax(b, axis=-1)
    output_d = d_model(c)
    model = keras.Model(inputs=a, outputs=output_d)
    model.compile(loss="binary_crossentropy", optimizer=keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5), run_eagerly=True)
    return model


gan = define_gan(generator, discriminator, timestep)
noise = np.random.rand(8, timestep).astype(np.float32)
gan.fit(noise, np.ones((8, 1), dtype=np.float32), batch_size=8, epochs=1, verbose=0)
