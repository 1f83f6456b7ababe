# expect: GG201@19
# tensorflow: none
# fixed: nofix
# shape: the model's output goes through a method of a plain class of the file (`helper.apply(t)`, a class without `__init__`, its method never reading `self`) that wraps it in `tf.stop_gradient`: the method is the function it is whatever the object, so the cut inside it is reported at the call (generator family, shrunk from bench/oracle.py seed 20261202 programs 4019, 8871 and 3684: the `method` flow)
import tensorflow as tf
import keras


class Helper:
    def apply(self, t):
        return tf.stop_gradient(t)


helper = Helper()
net = keras.Sequential([keras.layers.Dense(1)])
net.build((None, 3))
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    h = helper.apply(net(x))
    loss = tf.reduce_mean(h)
grads = tape.gradient(loss, net.trainable_variables)
