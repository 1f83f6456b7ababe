"""The project's jedi resolver, made at the first question the engine asks.

`LazyResolver` stands for `model.inference.JediResolver` and makes it (importing inference,
hashlib and, later, jedi) only when a file asks: one importing only the libraries the analyzer
knows never does, and a `check` of such files never pays for the machinery.
"""
from __future__ import annotations

from collections.abc import Callable

from ..model.budget import Budget


class LazyResolver:
    """`JediResolver(root, environment)`, made when first used; shared like the resolver itself."""

    def __init__(self, root: str | None = None, environment: str | None = None) -> None:
        self._arguments = (root, environment)
        self._resolver = None

    @property
    def resolver(self):
        if self._resolver is None:
            from ..model.inference import JediResolver

            self._resolver = JediResolver(*self._arguments)
        return self._resolver

    # The engine's two questions. A file importing only the libraries the analyzer knows asks jedi
    # nothing (JediResolver's own first gate, `imports.other_code`): answered here, unmade.

    def callable_for(self, doc, func, qualname, budget: Budget, depth: int, sibling: Callable):
        if not doc.imports.other_code:
            return None
        return self.resolver.callable_for(doc, func, qualname, budget, depth, sibling)

    def is_model(self, doc, node, budget: Budget, depth: int, sibling: Callable) -> bool:
        if not doc.imports.other_code:
            return False
        return self.resolver.is_model(doc, node, budget, depth, sibling)

    def __getattr__(self, name: str):  # anything else a caller reads (stats, caches)
        return getattr(self.resolver, name)
