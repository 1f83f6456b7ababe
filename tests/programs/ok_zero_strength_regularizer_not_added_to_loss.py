# expect: none
# tensorflow: ok
# shape: every Dense of a subclassed model's Sequential declares kernel_regularizer=l2(weight_decay) with weight_decay = 0.0 set just before, and the hand-written loss never adds model.losses: the penalties are all zero, adding them would change no gradient, so nothing is left out (dragen1860's CIFAR VGG tutorial)
# source: https://github.com/dragen1860/TensorFlow-2.x-Tutorials/blob/master/06-CIFAR-VGG/network.py
import tensorflow as tf
import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        weight_decay = 0.000
        self.body = keras.Sequential([keras.layers.Dense(8, kernel_regularizer=keras.regularizers.l2(weight_decay)),
                                      keras.layers.Dense(3)])

    def call(self, x):
        return self.body(x)


model = Net()
x = tf.random.normal((5, 4))
y = tf.one_hot([0, 1, 2, 0, 1], depth=3)
with tf.GradientTape() as tape:
    loss = keras.losses.CategoricalCrossentropy(from_logits=True)(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
