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
# What a call cannot add elements to.
NOT_CONTAINERS = (Kind.TENSOR, Kind.VARIABLE, Kind.MODEL, Kind.NUMBER, Kind.TAPE, Kind.CALLABLE)


class Unknown:
    def unknown_call(self, site: Site, callee: Value, value: Value, frame: Frame) -> Value:
        """A call nobody can follow: its result may depend on all it was given (`maybe`), not run
        through `op` (the identity, or `tf.stop_gradient`, for all we know), and it may change what
        it was given: a tape handed to it may watch anything; a list handed to it, or whose
        `append` it was handed, may hold anything it was given (also what a function it returns is
        given later: `_opaque(history.append)(x)`)."""
        given = [*site.inputs(), callee]
        for value_given in given:
            if isinstance(value_given.tape, TapeInfo):
                value_given.tape.watches_untracked = True
        result = maybe(value, given, self.doc.span(site.node))
        adders = tuple(sorted({key for v in given if isinstance(v.role, tuple) and v.role[0] in ("adder", "adds to")
                               for key in v.role[1:]}))
        nodes = [*site.node.args, *(k.value for k in site.node.keywords)] if isinstance(site.node, ast.Call) else []
        changed = set(adders) | {key for node in nodes if (key := name_key(node)) is not None}
        for key in sorted(changed):
            old = frame.lookup(key)
            if old is None or old.kind in NOT_CONTAINERS:
                continue  # (not a container a call can add to)
            self.note_mutation(key, result, frame)
            frame.env[key] = evolve(old, live=old.live | result.live, cut=old.cut | result.cut, items=None, elements=None)
        return evolve(result, role=("adds to", *adders)) if adders else result

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
            return receiver is not None and receiver.kind == Kind.UNKNOWN and receiver.role is None
        return func is not None
