"""Calls nobody can follow: a function of a library without a table here, a value the engine
cannot see into called, a method of an object nobody knows. Unknown is top: what such a call
returns may depend on everything it was given, at any depth (`values.maybe`), and proves nothing;
it may also change what it was given (a tape, a list). TensorFlow's, Keras's, NumPy's and TF
Probability's functions (`library.known_library`), Python's builtins and the methods of tensors,
variables and arrays are known; the file's own functions are followed (calls.py)."""
from __future__ import annotations

import ast
import builtins

from .facts import TapeInfo, name_key
from .frame import Frame
from .library import known_library
from .values import Kind, Site, Value, evolve, maybe

PYTHON_BUILTINS = frozenset(dir(builtins))
# What a call cannot add elements to: whatever it assigns to a variable, reading the variable
# stays a read of it (its gradient is its own).
NOT_CONTAINERS = (Kind.TENSOR, Kind.NUMPY, Kind.VARIABLE, Kind.VARIABLES, Kind.MODEL, Kind.NUMBER, Kind.TAPE,
                  Kind.CALLABLE, Kind.GRADS)
# `Value.role` of what may be one of the named values a call was given: (ALIASES, key, ...).
ALIASES = "may be"


def aliases(value: Value) -> tuple[str, ...]:
    """The names whose values `value` may be (`history.append` is `history`'s)."""
    return value.role[1:] if isinstance(value.role, tuple) and value.role[:1] == (ALIASES,) else ()


class Unknown:
    def unknown_call(self, site: Site, callee: Value, value: Value, frame: Frame) -> Value:
        """A call nobody can follow: its result may depend on all it was given (`maybe`), not run
        through `op` (the identity, or `tf.stop_gradient`, for all we know), and it may change what
        it was given: a tape handed to it may watch anything; a list or an object handed to it (or
        whose `append` it was handed) may hold anything it was given. What it returns may be any of
        the named values it was given (`aliases`): a method called on that later, or an attribute
        set on it, may change them too (`_opaque(store).value = v`, `_opaque(cache).assign(v)`)."""
        given = [*site.inputs(), callee]
        for value_given in given:
            if isinstance(value_given.tape, TapeInfo):
                value_given.tape.watches_untracked = True
        result = maybe(value, given, self.doc.span(site.node))
        nodes = [*site.node.args, *(k.value for k in site.node.keywords)] if isinstance(site.node, ast.Call) else []
        named = {key for node in nodes if (key := name_key(node)) is not None}
        reached = named | {key for v in given for key in aliases(v)}
        for key in sorted(reached):
            old = frame.lookup(key)
            if old is None or old.kind in NOT_CONTAINERS:
                continue  # (not a container a call can add to)
            # (what it may add carries what the call was given, opaquely: no break is proven by it)
            added = Value(result.live, kind=Kind.UNKNOWN)
            self.note_mutation(key, added, frame)
            frame.env[key] = evolve(old, live=old.live | added.live, items=None, elements=None)
        return evolve(result, role=(ALIASES, *sorted(reached))) if reached else result

    def unknown_function(self, site: Site, callee: Value, frame: Frame) -> bool:
        """Nothing known says what the call computes: a function of a library without a table here
        (`opaque_helpers._opaque`, `scipy.special.expit`), a value nobody can follow called
        (`fns[0](x)`, `make()(x)`), or a method of an object nobody can see into. TensorFlow's,
        Keras's and NumPy's functions, Python's builtins, and the methods of tensors, variables and
        arrays are known; the file's own functions are followed before this."""
        qual = site.qualname
        if qual:
            return not known_library(qual)
        if callee.kind not in (Kind.UNKNOWN, Kind.MODEL):
            return False
        func = site.node.func if isinstance(site.node, ast.Call) else None
        if isinstance(func, ast.Name):
            return func.id not in PYTHON_BUILTINS or frame.lookup(func.id) is not None
        if isinstance(func, ast.Attribute):
            receiver = site.receiver
            return receiver is not None and receiver.kind == Kind.UNKNOWN and (receiver.role is None or bool(aliases(receiver)))
        return func is not None
