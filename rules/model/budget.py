"""The jedi time one document may spend: what a caller gives the analysis with its resolver.

Apart from `inference` (which imports jedi's machinery when it is asked something), so that a
caller can make one without loading it (app/resolver.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(eq=False, repr=False)
class Budget:
    """Seconds of jedi time left for one document, and a way to stop early when it is stale."""

    seconds: float
    stale: Callable[[], bool] = lambda: False
    spent: float = 0.0
    asked: int = 0  # questions that got past the gates: the result depends on other files

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.seconds or self.stale()
