# expect: GG303@17
# tensorflow: none
# fixed: nofix
# shape: a functional net applies two Conv2D layers side by side to the same input and returns both (x0, x1); a second model is built on only the first output, and a tape over that model's loss asks for every variable of the two-output net, so the second branch's kernel and bias get None (in the thread's TF1 Keras, "An operation has `None` for gradient")
# source: https://github.com/tensorflow/tensorflow/issues/22775
# heldout: 4
# gap: gradguard is silent: the second Conv2D is a layer of the functional graph whose output x1 is only a model output that the taped model (net1, built on net0.outputs[0]) never computes; it would need to follow keras.Model(net0.inputs, net0.outputs[0]) back through the functional graph to see that the x1 branch cannot reach the loss while the tape asks for net0.trainable_variables
import numpy as np
import tensorflow as tf
import keras
from keras.layers import Conv2D


def get_test0_net():
    data_input = keras.Input(shape=(4, 4, 3))
    x0 = Conv2D(3, 3, padding="same")(data_input)
    x1 = Conv2D(3, 3, padding="same")(data_input)
    return keras.Model(data_input, [x0, x1])


net0 = get_test0_net()
net1 = keras.Model(net0.inputs, net0.outputs[0])
optimizer = keras.optimizers.SGD(0.01)

images = np.random.rand(2, 4, 4, 3).astype(np.float32)
targets = np.random.rand(2, 4, 4, 3).astype(np.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(net1(images) - targets))
grads = tape.gradient(loss, net0.trainable_variables)
optimizer.apply_gradients(zip(grads, net0.trainable_variables))
