# expect: none
# tensorflow: ok
# shape: the same base net, sum Lambda and identity Lambda as the py_func program, the identity now wrapped in `tf.py_function` instead of `tf.compat.v1.py_func`: py_function records the eager ops it runs, so the identity passes the gradient and fit trains every base-net variable (the fix when the Python body is TensorFlow code)
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
    tensor = tf.py_function(lambda y: y, [x], tf.float32)
    tensor.set_shape(x.shape)
    return tensor


out2 = Lambda(py_func, name="py_func")(out1)

facenet = Model(net.inputs, out2)
facenet.compile(loss="mae", optimizer=keras.optimizers.Adam(learning_rate=1e-5))
facenet.fit(x_train, y_train, verbose=0)
