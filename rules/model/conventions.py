"""Name conventions: the guesses the model makes from how things are named, when nothing else is known.

Documented in docs/name-conventions.md.
"""
from __future__ import annotations

import re

# Callee names that are, by convention, Keras models or layers when nothing else is known.
_MODEL_NAME = re.compile(
    r"(^|_)(models?|nets?|networks?|qnet|dqn|actor|critic|generator|discriminator|gen|disc|encoder|decoder"
    r"|policy|classifier|regressor|layers?|dense|mlp|cnn|rnn|lstm|gru|backbone|head|embedding)\d*($|_)",
    re.IGNORECASE,
)
# Model inputs that, by convention, are next states: a model called on them makes a TD target.
_NEXT_STATE = re.compile(r"(next|new_?(state|obs)|_tp1\b|tp1|_prime\b|\bs_\b|\bs2\b|\bobs2\b|succ)", re.IGNORECASE)
