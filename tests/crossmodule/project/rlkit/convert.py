"""Conversions that look harmless and are not, on a value that must keep its gradient."""
import numpy as np


def to_numpy(tensor):
    return tensor.numpy()


def as_array(tensor):
    return np.asarray(tensor, dtype=np.float32)


def scale(tensor, factor=2.0):
    return tensor * factor  # stays in TensorFlow: no break
