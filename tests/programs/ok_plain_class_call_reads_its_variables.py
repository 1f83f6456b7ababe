# expect: none
# tensorflow: ok
# shape: a plain Python class (not a tf.Module) holds two tf.Variables set in __init__ and computes with them in __call__; the tape asks for [model.W, model.b]: calling the object reads them (GG302 "never uses" was claimed here, from real code never run here before: a linear-regression example)
# source: https://github.com/YunYang1994/TensorFlow2.0-Examples/blob/master/2-Basical_Models/Linear_Regression.py
import tensorflow as tf


class Linear(object):
    def __init__(self):
        self.W = tf.Variable(10.0)
        self.b = tf.Variable(-5.0)

    def __call__(self, inputs):
        return self.W * inputs + self.b


model = Linear()
inputs = tf.random.normal(shape=[100])
outputs = inputs * 3.0 + 2.0
for epoch in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(outputs - model(inputs)))
    dW, db = tape.gradient(loss, [model.W, model.b])
    model.W.assign_sub(0.1 * dW)
    model.b.assign_sub(0.1 * db)
