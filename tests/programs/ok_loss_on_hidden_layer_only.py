# expect: none
# tensorflow: ok
# source: https://xue-jishu.com/zai-keras-zhong-wei-shen-me-sun-shi-han-shu-bi-xu-ji-yu-shen-jing-wang-luo-de-shu-chu
# shape: same model with the output layer frozen (trainable=False), as the answer suggests, so every trainable variable reaches the loss
# heldout: 9
import numpy as np
import tensorflow as tf
import keras
from keras import layers

input_1 = keras.Input((5,))
hidden_a = layers.Dense(2)(input_1)
output = layers.Dense(1, trainable=False)(hidden_a)
m3 = keras.Model(input_1, [output, hidden_a])


def my_loss(y_true, y_pred, hidden):
    return tf.reduce_sum(hidden)


optimizer = keras.optimizers.Adam()
x = np.random.random(size=(10, 5)).astype("float32")
y = np.random.random(size=(10, 1)).astype("float32")

with tf.GradientTape() as tape:
    y_pred, hidden = m3(x)
    loss = my_loss(y, y_pred, hidden)
grads = tape.gradient(loss, m3.trainable_variables)
optimizer.apply_gradients(zip(grads, m3.trainable_variables))
