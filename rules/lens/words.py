"""The lens's words, in one place: `explain`, the hover and the inlay hints all say things so.

Breaks are named as the break report names them (`Break.name`); positions are
`line:column` with a 1-based column, as the CLI prints them. `at` is given by the front end: the
CLI writes `45:43` (or `cell 3:4:12` in a notebook), the hover a link to the place.
"""
from __future__ import annotations

import os
from collections.abc import Callable

from ..diagnostics import Span
from ..model.facts import Sink, TapeInfo
from ..model.status import OriginStatus, Verdict
from ..model.values import Break, Grad, Origin, OriginKind

At = Callable[[Span], str]


def plain_at(span: Span) -> str:
    return f"{span.line}:{span.col + 1}"


def origin_label(origin: Origin) -> str:
    """A source as the lens lists it: "q_net", "model's layers before `ops.ceil`"."""
    return f"{origin.name}'s layers {origin.part}" if origin.part else origin.name


def origin_noun(origin: Origin) -> str:
    """What a value was before a cut: "the output of `self.model`"."""
    if origin.part is not None:
        return f"the output of the layers of `{origin.name}` {origin.part}"
    return {
        OriginKind.MODEL: f"the output of `{origin.name}`",
        OriginKind.VARIABLE: f"the variable `{origin.name}`",
        OriginKind.Y_PRED: f"the prediction `{origin.name}`",
        OriginKind.WATCHED: f"the watched `{origin.name}`",
    }.get(origin.kind, f"`{origin.name}`")


def carries(grad: Grad, at: At) -> str:
    """"carries the gradient of `self.model` (started at 41:21)"."""
    what = f"the prediction `{grad.origin.name}`" if grad.origin.kind is OriginKind.Y_PRED else f"`{grad.origin.name}`"
    side = " as a TD target" if grad.bootstrap else " through its weights, read directly" if grad.weights else ""
    return f"carries the gradient of {what}{side} (started at {at(grad.site)})"


def cut_by(brk: Break, at: At) -> str:
    """"cut by `.numpy()` at 45:43", "cut by `tf.round` inside `QuantizedDense.call` (called at 50:9)"."""
    if brk.via is not None:
        where = brk.inside or "a helper"
        inner = f" ({_shown(brk.path)}, line {brk.span.line})" if brk.path else f" at {at(brk.span)}"
        return f"cut by {brk.name} inside {where}{inner}, called at {at(brk.via)}"
    return f"cut by {brk.name} at {at(brk.span)}"


def _shown(path: str) -> str:
    """Another module's path, relative to the working folder when it is near (as `check` shows files)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith(("../../", "..\\..\\")) else relative


def constant(brk: Break, origin: Origin, tape: TapeInfo | None, at: At) -> str:
    """"constant to `tape`: cut by `.numpy()` at 45:43 (was the output of `self.model`)"."""
    to = f" to `{tape.name}`" if tape is not None else ""
    on_purpose = " on purpose" if brk.deliberate else ""
    return f"constant{to}{on_purpose}: {cut_by(brk, at)} (was {origin_noun(origin)})"


def not_recorded(tape: TapeInfo, where: str, grad: Grad, at: At) -> str:
    """"not recorded: computed before the `with` block of `tape`"."""
    if where == "inside":
        started = grad.dropped_at or grad.site
        return (f"not recorded by `{tape.name}`: computed before its `with` block (at {at(started)}), "
                f"from {origin_noun(grad.origin)}")
    return f"not recorded: computed {where} the `with` block of `{tape.name}` (from {origin_noun(grad.origin)})"


def reason(verdict: Verdict, paths: OriginStatus, sink: Sink, brk: Break | None, at: At) -> str:
    """Why an origin gets no gradient at a sink, in a few words (the inlay hint's, explain's)."""
    if verdict in (Verdict.CUT, Verdict.TARGET_ONLY) and brk is not None:
        if verdict is Verdict.TARGET_ONLY:
            return f"prediction {cut_by(brk, at)} (only the TD target trains)"
        return cut_by(brk, at)
    if verdict is Verdict.UNTOUCHED:
        return f"loss never uses it{untouched_detail(sink)}"
    if verdict is Verdict.UNRECORDED and sink.tape is not None:
        grad = min(paths.untaped, key=lambda g: g.dropped_at or g.site)
        return f"not recorded by `{sink.tape.name}`: computed outside its `with` block (at {at(grad.dropped_at or grad.site)})"
    return {
        Verdict.UNTOUCHED: "loss never uses it",
        Verdict.REBOUND: "the variable is replaced by a tensor computed from it",
        Verdict.INTEGER: "an integer variable has no gradient",
        Verdict.SILENT: "cannot tell from this file",
    }.get(verdict, "no gradient")


def untouched_detail(sink: Sink) -> str:
    """What the loss does depend on, for a source it never uses: " (it depends on `critic`)",
    " (it depends on nothing trainable)"."""
    names = sorted({g.origin.name for g in sink.target.live if g.origin.kind is not OriginKind.NEW}
                   | {c.grad.origin.name for c in sink.target.cut if c.grad.origin.kind is not OriginKind.NEW})
    if not sink.target.live and not sink.target.cut:
        return " (it depends on nothing trainable)"
    asked = {o.name for item in sink.sources or () for o in item.origins}
    others = [n for n in names if n not in asked]
    return f" (it depends on {', '.join(f'`{n}`' for n in others[:3])})" if others else ""


def mark(ok: bool | None) -> str:
    return "?" if ok is None else "✓" if ok else "✗"


def count(ok: int, total: int, unknown: int = 0) -> str:
    """"2 of 3 sources get a gradient" (", 1 cannot tell")."""
    if total == 1:
        return "its source gets a gradient" if ok else "cannot tell for its source" if unknown else \
            "its source gets no gradient"
    tail = f", {unknown} cannot tell" if unknown else ""
    if ok == total:
        return f"all {total} sources get a gradient"
    return f"{ok} of {total} sources get a gradient{tail}"
