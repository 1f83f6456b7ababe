"""When a function's summary is stale: the names it reads around it were bound again since.

Python looks a function's free names up when it runs: `def predict(x): return x @ W + b`, then
`W = tf.Variable(...)` bound again further down, reads the new `W` from then on. A summary
computed at the first call and kept for every later one reads the old `W`, and the analysis of
the function that asks for the gradient of the new one says the loss "never uses `W`". So a
summary keeps what its free names were bound to (and what the summaries it used kept), and is
computed again when one of them is bound to another value.
"""
from __future__ import annotations

import ast
import weakref

from ..source.walk import walk
from .frame import Frame


class BodyNames:
    """What a function's body (its nested functions included) says about names, from one walk."""

    __slots__ = ("loaded", "declared")

    def __init__(self, loaded: tuple[str, ...], declared: frozenset[str]) -> None:
        self.loaded = loaded        # every name it loads, locals among them
        self.declared = declared    # the names it declares `global` or `nonlocal`


# By function node: a kept node (the editor's unchanged statements) is not walked again.
_BODY_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def body_names(node: ast.AST) -> BodyNames:
    """The loaded names are looked up in the enclosing frame to tell when a summary is stale: a
    local looked up there finds nothing, or a global of the same name, which at worst makes the
    summary be computed again."""
    names = _BODY_NAMES.get(node)
    if names is None:
        loaded, declared = set(), set()
        for stmt in node.body if isinstance(node.body, list) else [node.body]:
            for n in walk(stmt):
                kind = type(n)
                if kind is ast.Name:
                    if type(n.ctx) is ast.Load:
                        loaded.add(n.id)
                elif kind is ast.Global or kind is ast.Nonlocal:
                    declared.update(n.names)
        names = _BODY_NAMES[node] = BodyNames(tuple(loaded), frozenset(declared))
    return names


_FREE_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def free_names(node: ast.AST) -> frozenset[str]:
    """The names a function reads from around it: those it loads and binds nowhere in its own
    body (a name Python makes local by binding it anywhere there is not read from around, unless
    declared `global` or `nonlocal`). Over-approximated: a name bound only in a nested function
    or comprehension still counts as read."""
    names = _FREE_NAMES.get(node)
    if names is None:
        loaded, bound, declared = set(), set(), set()
        for n in walk(node):
            kind = type(n)
            if kind is ast.Name:
                (loaded if type(n.ctx) is ast.Load else bound).add(n.id)
            elif kind is ast.Global or kind is ast.Nonlocal:
                declared.update(n.names)
            elif kind is ast.ExceptHandler and n.name:
                bound.add(n.name)
            elif kind is ast.Import or kind is ast.ImportFrom:
                bound.update((alias.asname or alias.name).split(".")[0] for alias in n.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            bound.update(a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                         *([arguments.vararg] if arguments.vararg else []),
                                         *([arguments.kwarg] if arguments.kwarg else [])])
        names = _FREE_NAMES[node] = frozenset(loaded - (bound - declared))
    return names


class FreeReads:
    """Per summary key, the values its free names (and those of the summaries it used) had."""

    def __init__(self) -> None:
        self.kept: dict[object, tuple[tuple[Frame, str, object], ...]] = {}
        self._open: list[dict[tuple[int, str], tuple[Frame, str, object]]] = []

    def begin(self) -> None:
        self._open.append({})

    def end(self, key: object, node: ast.AST, closure: Frame) -> None:
        reads = self._open.pop()
        for name in body_names(node).loaded:
            reads.setdefault((id(closure), name), (closure, name, closure.lookup(name)))
        self.kept[key] = tuple(reads.values())
        if self._open:
            self._open[-1].update(reads)

    def passed(self, key: object) -> None:
        """A kept summary was used by the one being computed: its reads are that one's too."""
        if self._open and key in self.kept:
            self._open[-1].update(((id(frame), name), (frame, name, value)) for frame, name, value in self.kept[key])

    def still(self, key: object) -> bool:
        """Every name the summary read is bound to the value it was bound to then."""
        return all(frame.lookup(name) is value for frame, name, value in self.kept.get(key, ()))
