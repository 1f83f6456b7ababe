# expect: none
# tensorflow: ok
# shape: Sequential CNN with keras.layers.RandomContrast after a batch-normalised conv block; TF 2.13's RandomContrast raised LookupError (no gradient for AdjustContrastv2), Keras 3's layer is written with differentiable ops and trains
# source: https://github.com/tensorflow/tensorflow/issues/62145
# family: 4
import numpy as np
import tensorflow as tf
import keras
from keras import layers

img_height, img_width, num_classes = 16, 16, 3

model_6 = keras.Sequential()
model_6.add(keras.Input(shape=(img_height, img_width, 3)))
model_6.add(layers.Conv2D(filters=8, kernel_size=(3, 3), padding="same", activation="relu"))
model_6.add(layers.RandomFlip("horizontal_and_vertical"))
model_6.add(layers.MaxPooling2D(pool_size=(2, 2)))
model_6.add(layers.BatchNormalization())
model_6.add(layers.RandomContrast(factor=0.2, seed=11))
model_6.add(layers.Flatten())
model_6.add(layers.Dense(16))
model_6.add(layers.LeakyReLU(0.1))
model_6.add(layers.Dense(num_classes, activation="softmax"))
model_6.compile(optimizer="adam", loss="sparse_categorical_crossentropy", run_eagerly=True)

x_train = np.random.rand(8, img_height, img_width, 3).astype(np.float32)
y_train = np.random.randint(0, num_classes, size=8)
model_6.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
