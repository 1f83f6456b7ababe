"""Resolve the names a module imports to the qualified names rules talk about.

`import numpy as onp` makes `onp.mean` resolve to `numpy.mean`; `from tensorflow.keras import
backend as K` makes `K.eval` resolve to `keras.backend.eval`. Every spelling of Keras
(`tensorflow.keras`, `tf_keras`, `tensorflow.python.keras`) is folded into `keras` so that rules
match one name.
"""
from __future__ import annotations

import ast

_KERAS_PREFIXES = ("tensorflow.keras", "tensorflow.python.keras", "tf_keras")


def canonical(qualname: str) -> str:
    for prefix in _KERAS_PREFIXES:
        if qualname == prefix or qualname.startswith(prefix + "."):
            return "keras" + qualname[len(prefix):]
    return qualname


class Imports:
    """Local name → qualified name, for one module (imports anywhere in it count)."""

    def __init__(self, tree: ast.AST, nodes: list[ast.AST] | None = None) -> None:
        self.aliases: dict[str, str] = {}
        for node in nodes if nodes is not None else ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = canonical(alias.name)
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = canonical(top)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if alias.name != "*":
                        self.aliases[alias.asname or alias.name] = canonical(f"{node.module}.{alias.name}")

    def qualname(self, node: ast.AST) -> str | None:
        """`tf.math.round` → "tensorflow.math.round"; None when the root is not an import."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        parts.append(self.aliases[node.id])
        return canonical(".".join(reversed(parts)))

    def alias_for(self, module: str) -> str | None:
        """The local name bound to `module` itself (e.g. "tf" for tensorflow), if any."""
        for local, qualified in self.aliases.items():
            if qualified == module:
                return local
        return None


def is_numpy(qualname: str | None) -> bool:
    return bool(qualname) and (qualname == "numpy" or qualname.startswith("numpy."))


def is_tensorflow(qualname: str | None) -> bool:
    return bool(qualname) and (
        qualname.startswith("tensorflow.") or qualname.startswith("keras.") or qualname in ("tensorflow", "keras")
    )


def is_differentiable_numpy(qualname: str | None) -> bool:
    """tf.experimental.numpy mirrors numpy's API with differentiable TensorFlow ops."""
    return bool(qualname) and qualname.startswith("tensorflow.experimental.numpy")
