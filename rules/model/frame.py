"""The interpreter's state while it evaluates one function body (or the module)."""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

from .facts import ClassInfo, TapeInfo
from .values import Value


@dataclass
class Frame:
    """The state while evaluating one function body (or the module)."""

    env: dict[str, Value]
    parent: "Frame | None"
    function: ast.AST | None
    cls: ClassInfo | None = None
    summary: bool = False             # computing a summary: no sinks, caller's tapes
    returns: list[Value] = field(default_factory=list)
    tapes: tuple[TapeInfo, ...] = ()
    loss_function: bool = False

    def lookup(self, name: str) -> Value | None:
        frame: Frame | None = self
        while frame is not None:
            if name in frame.env:
                return frame.env[name]
            frame = frame.parent
        return None


@functools.cache
def _handler(engine: type, prefix: str, kind: type):
    """`Engine.eval_Call` for (Engine, "eval_", ast.Call): looked up once per node type, not per node."""
    return getattr(engine, f"{prefix}{kind.__name__}", None)
