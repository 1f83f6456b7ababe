"""What one analysis finds: sinks, tapes, classes and the other facts that rules query."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..source.document import Document
from .values import Origin, Value


@dataclass
class TapeInfo:
    id: str
    name: str
    persistent: bool
    with_node: ast.With
    call_node: ast.Call | None
    gradient_calls: list[ast.Call] = field(default_factory=list)


@dataclass
class SourceItem:
    """One entry of the variables `tape.gradient` is asked about."""

    node: ast.AST
    value: Value
    origins: frozenset[Origin]


@dataclass
class Sink:
    kind: str                         # "gradient", "loss-function", "compute-loss", "minimize"
    node: ast.AST
    target_node: ast.AST
    target: Value
    sources: list[SourceItem] | None  # None: whatever the target depends on
    tape: TapeInfo | None
    label: str                        # "`tape.gradient` on line 24"
    function: ast.AST | None = None


@dataclass
class Guard:
    """An `if`/`while` test over a value."""

    node: ast.AST                     # the test expression
    value_node: ast.AST               # the name tested
    value: Value


@dataclass
class Rebind:
    """`w = w - lr * g` where `w` was a tf.Variable."""

    node: ast.stmt
    target: ast.AST
    origin: Origin
    function: ast.AST | None


@dataclass
class ClassInfo:
    node: ast.ClassDef
    is_keras: bool
    origin: Origin | None
    attrs: dict[str, Value] = field(default_factory=dict)


@dataclass
class Analysis:
    doc: Document
    sinks: list[Sink] = field(default_factory=list)
    tapes: list[TapeInfo] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)
    minimize_calls: list[tuple[ast.Call, Value, Value]] = field(default_factory=list)
    rebinds: list[Rebind] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    gradient_source_names: dict[int, set[str]] = field(default_factory=dict)  # id(function) → names
