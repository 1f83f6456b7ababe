"""The interpreter's state while it evaluates one function body (or the module)."""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field

from .facts import ClassInfo, TapeInfo
from .values import Value


@dataclass(eq=False, repr=False)
class Frame:
    """The state while evaluating one function body (or the module)."""

    env: dict[str, Value]
    parent: "Frame | None"
    function: ast.AST | None
    cls: ClassInfo | None = None
    summary: bool = False             # computing a summary: no sinks, caller's tapes
    returns: list[Value] = field(default_factory=list)
    # `return tf.constant(0.0)` beside returns that carry a gradient (GG313): the constant's node,
    # and the statement it is the fallback of (its `if`, or the return itself).
    constant_returns: list = field(default_factory=list)
    tapes: tuple[TapeInfo, ...] = ()
    loss_function: bool = False
    # Replaying a function for one call (`train_step(logits, labels)`): its parameters are that
    # call's arguments. Only its `tape.gradient` sinks are kept, tagged with the call; every other
    # fact of the function comes from its own analysis.
    call_site: ast.Call | None = None
    # The body runs while `tf.function` traces it (`@tf.function`, or called through
    # `tf.function(f)`): AutoGraph turns a `for` over a dataset into `Dataset.reduce`.
    traced: bool = False
    # Objects of the frames around this one whose attributes this frame set (`variational.parameters
    # -= step` in a function, `variational` the module's): a function it calls reads them as set.
    changed_outer: frozenset = frozenset()

    # The walks up the chain of frames below are written out, not a generator shared by them:
    # they run at nearly every expression the engine evaluates (a generator made a 5,000-line
    # analysis 12 % slower).
    def in_trace(self) -> bool:
        frame: Frame | None = self
        while frame is not None:
            if frame.traced:
                return True
            frame = frame.parent
        return False

    def replaying(self) -> ast.Call | None:
        """The call being replayed, if this frame (or one it is nested in) replays one."""
        frame: Frame | None = self
        while frame is not None:
            if frame.call_site is not None:
                return frame.call_site
            frame = frame.parent
        return None

    @property
    def records_facts(self) -> bool:
        """Facts of the whole file (a `fit`, a `minimize` call, the lens's values) are recorded
        by the function's own analysis: not by a summary, nor by a replay for one call."""
        return not self.summary and self.replaying() is None

    def enclosing_class(self) -> ClassInfo | None:
        """The class whose `self` this frame reads: of the method it is, or of the method it is
        nested in (a function defined in `call` reads the method's `self`, so `self.x` is that
        class's attribute). A method of a class defined in a method, whose receiver has another
        name (`def apply(head, x): return x * self.w`), reads the outer method's `self`."""
        frame: Frame | None = self
        while frame is not None:
            if frame.cls is not None and "self" in frame.env:
                return frame.cls
            frame = frame.parent
        return None

    def changes_outer(self) -> bool:
        """This frame, or one it is nested in, set an attribute of an object of a frame around it."""
        frame: Frame | None = self
        while frame is not None:
            if frame.changed_outer:
                return True
            frame = frame.parent
        return False

    def seen_from(self, closure: "Frame") -> "Frame":
        """`closure`, the frame a function called from here reads its free names from, with the
        objects of it this frame (or one it is nested in) changed, as changed: Python's objects
        are shared, the engine's values are not."""
        changed: dict[str, Value] = {}
        frame: Frame | None = self
        while frame is not None and frame is not closure:
            for name in frame.changed_outer:
                if name in frame.env:  # (not on a branch run apart from the one that set it)
                    changed.setdefault(name, frame.env[name])
            frame = frame.parent
        if frame is None or not changed:
            return closure  # (not around this frame: a function of another scope)
        return Frame(changed, closure, closure.function, cls=closure.cls)

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
