# expect: GG402@16
# tensorflow: none
# fixed: nofix
# shape: U-Net-style segmenter compiled with a custom loss that takes K.argmax of the per-pixel class probabilities to compare label maps (to fit labels shaped (batch, h, w, 1)); fit gets no gradient
# source: https://github.com/bermanmaxim/LovaszSoftmax/issues/12
# family: 3
import numpy as np
import tensorflow as tf
import keras
from keras import ops as K

n_classes = 3


def label_map_loss(y_true, y_pred):
    predicted = K.cast(K.expand_dims(K.argmax(y_pred, axis=-1), -1), "float32")
    return K.mean(K.square(y_true - predicted))


model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(n_classes, 1, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.SGD(), loss=label_map_loss, metrics=["accuracy"], run_eagerly=True)

images = np.random.rand(2, 16, 16, 3).astype(np.float32)
labels = np.random.randint(0, n_classes, size=(2, 16, 16, 1)).astype(np.float32)
model.fit(images, labels, batch_size=2, epochs=1, verbose=0)
