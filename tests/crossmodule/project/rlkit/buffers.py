"""Replay buffers: one hands out numpy arrays, the other tensors made from them."""
import numpy as np
import tensorflow as tf


class NumpyBuffer:
    def __init__(self, n_states=4, size=64, seed=0):
        rng = np.random.default_rng(seed)
        self.states = rng.normal(size=(size, n_states)).astype(np.float32)
        self.rewards = rng.normal(size=(size,)).astype(np.float32)

    def sample(self, batch_size=8):
        return self.states[:batch_size], self.rewards[:batch_size]


class TensorBuffer(NumpyBuffer):
    def sample(self, batch_size=8):
        states, rewards = super().sample(batch_size)
        return tf.constant(states), tf.constant(rewards)
