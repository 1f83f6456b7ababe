"""A small RL helper package, the way real projects grow one: helpers re-exported here."""
from .convert import as_array, to_numpy
from .nets import QNetwork, build_q_network
from .predict import q_values

__all__ = ["QNetwork", "as_array", "build_q_network", "q_values", "to_numpy"]
