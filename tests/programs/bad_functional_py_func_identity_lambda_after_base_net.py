# expect: GG107@23
# tensorflow: none
# fixed: nofix
# shape: a few layers stacked on a pretrained base net in the functional API: a Lambda sums the base's class scores, then a second Lambda wraps an identity Python function in `tf.compat.v1.py_func` (with `set_shape` to restore the static shape) before the model output; compile + fit with mae gets no gradient for any base-net variable (TF 1 raised "None values not supported"; TF 2.21 / Keras 3: "No gradients provided for any variable"), since py_func has no gradient even for an identity
# source: https://github.com/keras-team/keras/issues/9130
# family: 3
# heldout: 2
import numpy as np
import tensorflow as tf
import keras
from keras.layers import Conv2D, Dense, Flatten, Input, Lambda
from keras.models import Model

# stands in for VGG16(include_top=True): a small image classifier ending in class scores
net = keras.Sequential([Input(shape=(32, 32, 3)), Conv2D(4, 3, activation="relu"), Flatten(), Dense(10, activation="softmax")], name="vgg16")
x_train = np.zeros((2, 32, 32, 3), dtype=np.float32)
y_train = np.zeros((2, 1), dtype=np.float32)

out1 = Lambda(lambda x: tf.reduce_sum(x, axis=-1, keepdims=True), name="sums")(net.outputs[0])


def py_func(x):
    tensor = tf.compat.v1.py_func(lambda y: y, [x], tf.float32)
    tensor.set_shape(x.shape)
    return tensor


out2 = Lambda(py_func, name="py_func")(out1)

facenet = Model(net.inputs, out2)
facenet.compile(loss="mae", optimizer=keras.optimizers.Adam(learning_rate=1e-5))
facenet.fit(x_train, y_train, verbose=0)
