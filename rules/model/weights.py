"""Whether a Keras layer class of this file is known to make no weights (GG403 and the other
claims about the layers before a break: a layer with nothing to train loses nothing).

Proof is asked for, not assumed: the class derives from `Layer` alone, never calls `add_weight`
(or makes a variable), and every attribute it sets on `self` is a literal, a parameter with a
literal default, or a value TensorFlow makes that holds no trainable weights (a lookup table, a
constant), a weightless Keras layer, or what a function of this file returns that is no model. A
handson-ml2 `TextVectorization` layer (a vocabulary table) before an `Embedding` is such a class.
"""
from __future__ import annotations

import ast
import weakref

from ..source.walk import walk

# Bases whose subclasses start with no weights of their own.
_LAYER_BASES = {"keras.layers.Layer", "keras.Layer", "keras.src.layers.Layer", "keras.src.engine.base_layer.Layer"}
_WEIGHT_MAKERS = {"add_weight", "add_variable"}
_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def makes_no_weights(cls: ast.ClassDef, qualname, weightless_layers, variable_constructors, returns_model) -> bool:
    """`qualname(node)`: a name's import path; `returns_model(node)`: a call of this file's function
    whose summary is a model or variable (or not known)."""
    # Kept for the class's node (an editor's unchanged statement) while the imports are the same
    # object, and only when no function of the file was asked about (its summary may change).
    imports = getattr(qualname, "__self__", None)
    kept = _KNOWN.get(cls)
    if kept is not None and kept[0] is imports:
        return kept[1]
    asked = []

    def returns(call: ast.Call) -> bool:
        asked.append(call)
        return returns_model(call)

    known = bool(cls.bases) and all((qualname(b) or "") in _LAYER_BASES for b in cls.bases)
    for method in cls.body if known else ():
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            literal = _literal_parameters(method)
            if any(_makes_weights(node, literal, qualname, weightless_layers, variable_constructors, returns)
                   for node in walk(method)):
                known = False
                break
    if not asked and imports is not None:
        _KNOWN[cls] = (imports, known)
    return known


def _literal_parameters(function: ast.FunctionDef) -> set[str]:
    """The parameters whose default is a literal (`max_vocabulary_size=1000`): no layer."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
             *zip(args.kwonlyargs, args.kw_defaults)]
    return {p.arg for p, d in pairs if isinstance(d, ast.Constant) and d.value is not None}


def _makes_weights(node: ast.AST, literal: set[str], qualname, weightless_layers, variable_constructors,
                   returns_model) -> bool:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _WEIGHT_MAKERS:
            return True
        return (qualname(func) or "") in variable_constructors
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(_on_self(t) for t in targets):
            return not _holds_no_weights(node.value, literal, qualname, weightless_layers, returns_model)
    return False


def _on_self(target: ast.AST) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_on_self(t) for t in target.elts)
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"


def _holds_no_weights(value: ast.AST, literal: set[str], qualname, weightless_layers, returns_model) -> bool:
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Name):  # a parameter: what it is given is known only where its default is a literal
        return value.id in literal
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        return True  # (another attribute: judged where it is set)
    if isinstance(value, ast.Call):
        qual = qualname(value.func) or ""
        if qual.startswith("keras."):
            return qual.rsplit(".", 1)[-1] in weightless_layers
        if qual.startswith("tensorflow."):
            return not qual.startswith(("tensorflow.keras.", "tensorflow.Module", "tensorflow.Variable"))
        if isinstance(value.func, ast.Name) and not qual:
            return value.func.id[:1].islower() and not returns_model(value)
    return False
