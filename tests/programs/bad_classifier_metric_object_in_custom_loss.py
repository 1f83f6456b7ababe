# expect: GG305@15
# tensorflow: none
# fixed: nofix
# shape: a two-head classifier compiled with a custom loss that calls a `keras.metrics.SparseCategoricalCrossentropy(ignore_class=-1)` object: a metric's __call__ updates its state variables and returns their running mean, which has no gradient, so fit raises "No gradients provided for any variable" (the loss function `keras.losses.sparse_categorical_crossentropy` works)
# source: https://github.com/keras-team/keras/issues/19150
# family: 7
import numpy as np
import keras
from keras import layers

sparse_cc = keras.metrics.SparseCategoricalCrossentropy(from_logits=False, ignore_class=-1)


def custom_loss(y_true, y_pred):
    loss = sparse_cc(y_true, y_pred)
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
