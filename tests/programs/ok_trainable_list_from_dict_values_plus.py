# expect: none
# tensorflow: ok
# shape: the variables of a hand-written MLP are kept in two dicts, and the sources are list(weights.values()) + list(biases.values()): a list of variables joined to another, not arithmetic (GG306 "a plain tensor that the tape never watched" was claimed here, from real code never run here before)
# source: https://github.com/YunYang1994/TensorFlow2.0-Examples/blob/master/2-Basical_Models/Multilayer_Perceptron.py
import numpy as np
import tensorflow as tf

weights = {"h1": tf.Variable(tf.random.normal([4, 8])), "out": tf.Variable(tf.random.normal([8, 3]))}
biases = {"b1": tf.Variable(tf.zeros([8])), "out": tf.Variable(tf.zeros([3]))}


def mlp(x):
    hidden = tf.nn.sigmoid(tf.matmul(x, weights["h1"]) + biases["b1"])
    return tf.nn.softmax(tf.matmul(hidden, weights["out"]) + biases["out"])


optimizer = tf.optimizers.SGD(0.1)
x = np.random.rand(5, 4).astype(np.float32)
y = np.random.randint(0, 3, size=5)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(-tf.reduce_sum(tf.one_hot(y, 3) * tf.math.log(mlp(x)), axis=1))
trainable_variables = list(weights.values()) + list(biases.values())
gradients = tape.gradient(loss, trainable_variables)
optimizer.apply_gradients(zip(gradients, trainable_variables))
