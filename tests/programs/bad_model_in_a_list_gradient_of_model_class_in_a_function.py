# expect: GG306@26
# tensorflow: raises AttributeError
# fixed: ok
# shape: an agent keeps one network per action in a list built by a factory of the enclosing function (the class is defined inside the function that runs it); `learn` picks `net = self.nets[action]` and asks `tape.gradient(loss, net)` for the model itself instead of its variables. The class's methods were analysed without the enclosing function's names (the factory was unknown) or without `self`, so the model in the list was not seen
# family: 1
import numpy as np
import tensorflow as tf
from tensorflow import keras


def main():
    def build_net(n_states):
        return keras.Sequential([keras.Input((n_states,)), keras.layers.Dense(8, activation="relu"),
                                 keras.layers.Dense(n_states)])

    class Agent:
        def __init__(self, n_states, n_actions):
            self.nets = [build_net(n_states) for _ in range(n_actions)]
            self.optimizer = keras.optimizers.SGD(0.01)
            self.mse = keras.losses.MeanSquaredError()

        def learn(self, state, target, action):
            net = self.nets[action]
            with tf.GradientTape() as tape:
                loss = self.mse(target, net(state))
            grads = tape.gradient(loss, net)
            self.optimizer.apply_gradients(zip(grads, net.trainable_variables))

    agent = Agent(n_states=4, n_actions=3)
    agent.learn(np.random.rand(1, 4).astype("float32"), np.random.rand(1, 4).astype("float32"), 1)


main()
