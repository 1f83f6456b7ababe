# expect: none
# tensorflow: ok
# shape: two instances of a plain class holding a model each, one trained through a method the loss calls (`agent.q_values(x)` reads `self.net`), the other asked about through `target.net(x)`: each instance's `net` is its own model, and a method call reads what its object holds (generator family: holder `attribute`)
import tensorflow as tf
import keras


class Agent:
    def __init__(self):
        self.net = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(2)])

    def q_values(self, states):
        return self.net(states)


agent = Agent()
target = Agent()
x = tf.ones((4, 3))
with tf.GradientTape(persistent=True) as tape:
    loss = tf.reduce_mean(agent.q_values(x))
    target_loss = tf.reduce_mean(target.net(x))
grads = tape.gradient(loss, agent.net.trainable_variables)
target_grads = tape.gradient(target_loss, target.net.trainable_variables)
del tape
