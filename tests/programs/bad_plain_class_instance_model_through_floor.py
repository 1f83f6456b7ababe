# expect: GG401@17
# tensorflow: none
# fixed: ok
# shape: a model held by an instance of a plain class (`agent = Agent()`, `self.net = keras.Sequential(...)` in `__init__`), called as `agent.net(x)` and rounded down with `tf.floor`: no gradient for `agent.net.trainable_variables` (generator family: holder `attribute`, recall 1 in 6 before; shrunk from bench/oracle.py seed 7 program 52)
import tensorflow as tf
import keras


class Agent:
    def __init__(self, units):
        self.net = keras.Sequential([keras.layers.Dense(units, activation="tanh"), keras.layers.Dense(1)])


agent = Agent(4)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.floor(agent.net(x) * 3.0))
grads = tape.gradient(loss, agent.net.trainable_variables)
