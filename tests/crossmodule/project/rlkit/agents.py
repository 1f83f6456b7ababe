"""An agent object that owns its networks."""
from tensorflow import keras

from .nets import QNetwork


class Agent:
    def __init__(self, n_actions=2):
        self.scorer = QNetwork(n_actions)
        self.optimizer = keras.optimizers.Adam(1e-3)
