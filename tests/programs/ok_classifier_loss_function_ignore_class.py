# expect: none
# tensorflow: ok
# shape: the working spelling from the thread: the same two-head classifier whose custom loss calls the loss function `keras.losses.sparse_categorical_crossentropy(..., ignore_class=-1)`, a differentiable tensor op, instead of a metric object
# source: https://github.com/keras-team/keras/issues/19150
# family: 7
import numpy as np
import keras
from keras import layers

from keras.losses import sparse_categorical_crossentropy


def custom_loss(y_true, y_pred):
    loss = sparse_categorical_crossentropy(y_true, y_pred, ignore_class=-1)
    return loss


inputs = keras.Input((6,))
hidden = layers.Dense(8, activation="relu")(inputs)
out1 = layers.Dense(5, activation="softmax", name="out1")(hidden)
out2 = layers.Dense(3, activation="softmax", name="out2")(hidden)
model = keras.Model(inputs, [out1, out2])
model.compile(optimizer=keras.optimizers.Adam(), loss=[custom_loss, custom_loss])

x_dummy = np.random.rand(8, 6).astype("float32")
y1_dummy = np.random.randint(-1, 5, size=8)
y2_dummy = np.random.randint(-1, 3, size=8)
model.fit(x_dummy, (y1_dummy, y2_dummy), batch_size=8, epochs=1, verbose=0)
