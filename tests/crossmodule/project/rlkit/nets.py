"""Networks built in their own module."""
from tensorflow import keras


def build_q_network(n_states=4, n_actions=2):
    return keras.Sequential([
        keras.Input(shape=(n_states,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


class QNetwork(keras.Model):
    def __init__(self, n_actions=2):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.out = keras.layers.Dense(n_actions)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


def build_regularized_q_network(n_states=4, n_actions=2):
    """A network whose hidden layer decays its weights: the term is in `model.losses`."""
    return keras.Sequential([
        keras.Input(shape=(n_states,)),
        keras.layers.Dense(16, activation="relu", kernel_regularizer=keras.regularizers.l2(1e-2)),
        keras.layers.Dense(n_actions),
    ])
