"""The recorder: each expression's final `Value`, kept only when a front end asks (the gradient lens).

`check` never records: the engine keeps no value once its expression is evaluated. The language
server and `gradguard explain` analyse inside `recording()`, and the top-level engine of every
analysis run in that block is then a recording one, a subclass of the engine that, after each
evaluation and each binding, keeps the value of the expression (or of the bound name) when it
depends on a trainable origin, live or cut. Loops are walked twice: the last walk's value is kept,
the one that has flowed around the loop. Function summaries (values in terms of parameters) are
not kept; the function's own analysis is.

    with recording() as recorder:
        diagnostics = api.lint_tolerant(source, path)
    recorder.analysis, recorder.values   # the analysis those diagnostics come from

Engines for other modules (jedi) are never recording ones: their values are of another file.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_ACTIVE: ContextVar["Recorder | None"] = ContextVar("gradguard_recorder", default=None)
_CLASSES: dict[type, type] = {}


class Recorder:
    """The values of the last analysis run while it was active."""

    def __init__(self) -> None:
        self._analysis = None                     # facts.Analysis of the last top-level engine
        self._values: dict[ast.AST, object] = {}  # expression or bound target → its final Value
        self._merge: Callable[[], tuple] | None = None
        self.document = None                      # the analysed module's source.document.Document
        self.joined = False                       # the analysis is a join of parts that keep theirs

    def start(self, analysis) -> None:
        self._analysis, self._values, self._merge = analysis, {}, None
        self.document, self.joined = analysis.doc, False

    def defer(self, document, merge: Callable[[], tuple]) -> None:
        """The analysis of `document` and its values are `merge()`'s (an editor's parts joined),
        made when first asked for: a keystroke's diagnostics do not wait for a join that only a
        hover reads."""
        self.document, self._merge, self.joined = document, merge, True

    @property
    def analysis(self):
        self._join()
        return self._analysis

    @property
    def values(self) -> dict[ast.AST, object]:
        self._join()
        return self._values

    def _join(self) -> None:
        if self._merge is not None:
            self._analysis, self._values = self._merge()
            self._merge = None


@contextmanager
def recording() -> Iterator[Recorder]:
    """Analyses run in this block (in this thread) record their values in the recorder yielded."""
    recorder = Recorder()
    token = _ACTIVE.set(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.reset(token)


def active() -> Recorder | None:
    """The recorder of the `recording()` block this thread is in, if any."""
    return _ACTIVE.get()


def engine_class(base: type) -> type:
    """`base` itself, or its recording subclass inside `recording()`."""
    if _ACTIVE.get() is None:
        return base
    cls = _CLASSES.get(base)
    if cls is None:
        cls = _CLASSES[base] = _recording(base)
    return cls


def _recording(base: type) -> type:
    """The subclass whose `eval` and `bind` call the engine's, then keep the value. The engine's
    methods are looked up once, here: `super()` in a method called for every expression costs."""
    base_init, base_eval, base_bind = base.__init__, base.eval, base.bind

    def __init__(self, *args, **kwargs) -> None:
        base_init(self, *args, **kwargs)
        recorder = _ACTIVE.get()
        recorder.start(self.analysis)
        self._kept = recorder.values

    def eval(self, node, frame):
        value = base_eval(self, node, frame)
        if (value.live or value.cut) and frame.records_facts:
            self._kept[node] = value
        return value

    def bind(self, target, value, frame, value_node) -> None:
        base_bind(self, target, value, frame, value_node)
        if (value.live or value.cut) and frame.records_facts and isinstance(target, (ast.Name, ast.Attribute)):
            self._kept[target] = value

    return type(f"Recording{base.__name__}", (base,), {"__init__": __init__, "eval": eval, "bind": bind})
