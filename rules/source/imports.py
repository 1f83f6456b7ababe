"""Resolve the names a module imports to the qualified names rules talk about.

`import numpy as onp` makes `onp.mean` resolve to `numpy.mean`; `from tensorflow.keras import
backend as K` makes `K.eval` resolve to `keras.backend.eval`. Every spelling of Keras
(`tensorflow.keras`, `tf_keras`, `tensorflow.python.keras`, the compat modules' `keras`) is folded
into `keras`, and `tensorflow.compat.v1.X` / `tensorflow.compat.v2.X` into `tensorflow.X` (the same
functions; TF1 programs import `tensorflow.compat.v1 as tf`), so that rules match one name.
"""
from __future__ import annotations

import ast
import sys

_KERAS_PREFIXES = ("tensorflow.keras", "tensorflow.python.keras", "tf_keras", "tensorflow.compat.v1.keras",
                   "tensorflow.compat.v2.keras", "keras.src")  # keras.src: Keras 3's own modules
_COMPAT_PREFIXES = ("tensorflow.compat.v1", "tensorflow.compat.v2")
TENSORFLOW_V1 = "tensorflow.compat.v1"
_TF1_OPTIMIZERS = "tensorflow.compat.v1.train."
# Keras 2 under its own names (TensorFlow 2.16+ has Keras 3 as `keras` and `tf.keras`).
_KERAS_2 = ("tf_keras", "tensorflow.python.keras")


def canonical(qualname: str) -> str:
    for prefix in _KERAS_PREFIXES:
        if qualname == prefix or qualname.startswith(prefix + "."):
            return "keras" + qualname[len(prefix):]
    for prefix in _COMPAT_PREFIXES:
        if qualname.startswith(_TF1_OPTIMIZERS):
            break  # `tf.compat.v1.train.AdamOptimizer` in TF2 code is not TF1's `tf.train.AdamOptimizer`
        if qualname == prefix or qualname.startswith(prefix + "."):
            return "tensorflow" + qualname[len(prefix):]
    return qualname


# Libraries whose meaning the analyzer knows from its own tables, or that hold no training code:
# there is nothing in them for cross-module analysis to follow.
_KNOWN_LIBRARIES = frozenset({
    "tensorflow", "keras", "tf_keras", "numpy", "jax", "torch", "scipy", "pandas", "gym", "gymnasium",
    "matplotlib", "sklearn", "tqdm", "absl", "yaml", "tensorflow_probability", "tensorflow_datasets",
    "tensorflow_hub", "tensorflow_addons", "tensorflow_text", "keras_cv", "keras_nlp", "keras_hub", "ml_dtypes",
    "seaborn", "PIL", "cv2", "IPython", "tensorboard", *sys.stdlib_module_names,
})


def _is_keras_2(module: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in _KERAS_2)


def is_known_library(qualname: str) -> bool:
    """`numpy.mean`, `tensorflow.keras.layers.Dense`, `os.path.join`: nothing to follow there."""
    return qualname.split(".")[0] in _KNOWN_LIBRARIES


class Imports:
    """Local name → qualified name, for one module (imports anywhere in it count)."""

    def __init__(self, tree: ast.AST, nodes: list[ast.AST] | None = None) -> None:
        self.aliases: dict[str, str] = {}
        self.relative_names: set[str] = set()  # bound by `from .nets import build`: jedi can say what
        self.star_from_other_code = False      # `from helpers import *` (not numpy's): any name may be
        self.other_code = False                # anything imported besides the known libraries
        self.tensorflow_v1_as_tf = False       # `import tensorflow.compat.v1 as tf`: a TensorFlow 1 program
        self.keras_2_names: set[str] = set()   # local names bound to Keras 2 (`import tf_keras`)
        for node in nodes if nodes is not None else ast.walk(tree):
            if isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)
        self._module_aliases(tree)

    def _module_aliases(self, tree: ast.AST) -> None:
        """`tfd = tfp.distributions`, `layers = tf.keras.layers` at the top of the module: another
        name for the same library object, when nothing else at the top level binds that name."""
        assigned: dict[str, list[ast.AST]] = {}
        for stmt in getattr(tree, "body", ()):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
            for target in targets:
                for name in (target,) if isinstance(target, ast.Name) else ast.walk(target):  # (most are names)
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(stmt)
        for name, stmts in assigned.items():
            stmt = stmts[0]
            if len(stmts) != 1 or name in self.aliases or not isinstance(stmt, ast.Assign) \
                    or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) \
                    or not isinstance(stmt.value, ast.Attribute):
                continue
            qualified = self.qualname(stmt.value)
            if qualified is not None and is_known_library(qualified):
                self.aliases[name] = qualified

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.other_code |= not is_known_library(alias.name)
            if _is_keras_2(alias.name):
                self.keras_2_names.add(alias.asname or alias.name.split(".")[0])
            if alias.asname:
                self.aliases[alias.asname] = canonical(alias.name)
                self.tensorflow_v1_as_tf |= alias.name == TENSORFLOW_V1 and alias.asname == "tf"
            else:
                top = alias.name.split(".")[0]
                self.aliases[top] = canonical(top)

    def _import_from(self, node: ast.ImportFrom) -> None:
        relative = node.level > 0 or not node.module
        other = relative or not is_known_library(node.module)
        self.other_code |= other
        for alias in node.names:
            if alias.name == "*":
                self.star_from_other_code |= other
            elif relative:
                self.relative_names.add(alias.asname or alias.name)
            else:
                self.aliases[alias.asname or alias.name] = canonical(f"{node.module}.{alias.name}")
                if _is_keras_2(node.module):
                    self.keras_2_names.add(alias.asname or alias.name)

    def may_come_from_other_code(self, name: str) -> bool:
        """Whether an otherwise unbound `name` can be defined in a module only jedi can find."""
        return name in self.relative_names or self.star_from_other_code

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

    def keras_2(self, node: ast.AST) -> bool:
        """`tf_keras.optimizers.SGD`: the name is Keras 2's, though `qualname` folds it into `keras`."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.keras_2_names

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
