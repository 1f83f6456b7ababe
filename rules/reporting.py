"""Turns an `Analysis` into diagnostics: the shared break report plus every check rule.

A break is reported when, at a sink, some differentiated origin has no live path left and at
least one of its paths was cut by that break: `error` when no differentiated origin keeps a
gradient (TensorFlow raises or returns all None), `warning` when others still do.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, Related, Severity, Span
from .engine import Analysis, Sink
from .registry import all_rules
from .rule import BreakRule, CheckRule
from .values import Cut, Grad, Origin


@dataclass
class OriginStatus:
    live: list[Grad] = field(default_factory=list)     # paths the sink's tape can differentiate
    cuts: list[Cut] = field(default_factory=list)      # paths cut by a break
    untaped: list[Grad] = field(default_factory=list)  # paths the tape never recorded


def sink_status(sink: Sink) -> dict[Origin, OriginStatus]:
    """For each differentiated origin of a sink, how its paths reach the target."""
    status: dict[Origin, OriginStatus] = {o: OriginStatus() for o in differentiated(sink)}
    for grad in sink.target.live:
        if grad.origin in status:
            bucket = status[grad.origin].live if tape_records(sink, grad) else status[grad.origin].untaped
            bucket.append(grad)
    for cut in sink.target.cut:
        if cut.grad.origin in status and tape_records(sink, cut.grad):
            status[cut.grad.origin].cuts.append(cut)
    return status


def live_elsewhere(sink: Sink, status: dict[Origin, OriginStatus]) -> bool:
    """The loss does get a gradient from some model the sink was not asked about."""
    return any(g.origin not in status and tape_records(sink, g) for g in sink.target.live)


def only_target_untaped(sink: Sink, status: dict[Origin, OriginStatus], paths: OriginStatus) -> bool:
    """The model's only use is a TD target computed before the tape, while the loss is built from
    another model: the wrong variables were asked for (GG302), not a forward pass outside (GG301)."""
    return all(g.bootstrap for g in paths.untaped) and live_elsewhere(sink, status)


def differentiated(sink: Sink) -> set[Origin]:
    if sink.sources is not None:
        return set().union(*(item.origins for item in sink.sources))
    return {g.origin for g in sink.target.live} | {c.grad.origin for c in sink.target.cut}


def tape_records(sink: Sink, grad: Grad) -> bool:
    return sink.tape is None or grad.tapes is None or sink.tape.id in grad.tapes


def dead_severity(status: dict[Origin, OriginStatus]) -> Severity:
    """`error` when no differentiated origin keeps a gradient, else `warning`."""
    return Severity.WARNING if any(s.live for s in status.values()) else Severity.ERROR


def sink_phrase(sink: Sink, dead: list[Origin], partial: bool) -> str:
    names = ", ".join(f"`{o.variables_text()}`" for o in dead)
    if sink.kind == "loss-function":
        return f"{sink.label} returns a loss with no gradient for {names}"
    tail = " (other variables still get theirs)" if partial else ""
    return f"the loss given to {sink.label} gets no gradient for {names}{tail}"


def break_diagnostics(analysis: Analysis, rules: dict[str, BreakRule]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    doc = analysis.doc
    for sink in analysis.sinks:
        status = sink_status(sink)
        severity = dead_severity(status)
        # A path the tape never recorded is the first thing to fix (GG301): once it is recorded the
        # origin may well keep its gradient, and a cut beside it may be deliberate (an estimator).
        dead = [o for o, s in status.items() if not s.live and s.cuts and not s.untaped]
        for origin in dead + _target_only(status):
            partial = severity == Severity.WARNING or origin not in dead
            for cut in _reported_breaks(status[origin].cuts, rules):
                rule = rules[cut.brk.code]
                brk = cut.brk
                where = _helper_place(brk, doc) if brk.via else ""
                if origin in dead:
                    consequence = sink_phrase(sink, [origin], partial)
                else:
                    consequence = (f"only the bootstrapped target still carries a gradient for "
                                   f"`{origin.variables_text()}`, so training is silently wrong")
                message = f"`{brk.value_text}` ({origin.describe()}) {rule.verb} {brk.label}{where}; {consequence}"
                related = [Related(cut.grad.site, f"`{origin.name}` starts the gradient here")]
                if brk.via:
                    related.append(Related(brk.span, f"{brk.label} cuts the gradient here", brk.path))
                related.append(Related(doc.span(sink.node), f"the loss reaches {sink.label.split(' on ')[0]} here"))
                fixes = () if brk.via else tuple(rule.fixes(brk, doc))
                level = Severity.WARNING if partial else severity
                out.append(Diagnostic(brk.code, level, message, brk.via or brk.span, tuple(related), fixes))
    return out


def _helper_place(brk, doc) -> str:
    if brk.path is None:
        return f" inside a helper (line {brk.span.line})"
    return f" inside a helper ({_display_path(brk.path, doc.path)}, line {brk.span.line})"


def _display_path(path: str, relative_to: str) -> str:
    """`path` relative to the analysed file's folder when it is near, else as it is."""
    try:
        shown = os.path.relpath(path, os.path.dirname(os.path.abspath(relative_to)))
    except ValueError:
        return path
    return shown if not shown.startswith("../../") else path


def _target_only(status: dict[Origin, OriginStatus]) -> list[Origin]:
    """Origins whose prediction is cut while a TD target computed from them still flows."""
    return [o for o, s in status.items()
            if s.live and all(g.bootstrap for g in s.live) and any(not c.grad.bootstrap for c in s.cuts)]


def _reported_breaks(cuts: list[Cut], rules: dict[str, BreakRule]) -> list[Cut]:
    """The breaks to report for one dead origin. A deliberate cut (`tf.stop_gradient`) is named
    only when nothing else cut the origin: beside another break, some path went past it, so the
    other break is the one to fix (and unwrapping a straight-through estimator would undo a fix)."""
    breaks = _distinct_breaks(cuts)
    accidental = [cut for cut in breaks if not rules[cut.brk.code].absorbs_cuts]
    return accidental or breaks


def _distinct_breaks(cuts: list[Cut]) -> list[Cut]:
    seen: dict[tuple[Span, Span | None], Cut] = {}
    certain = [cut for cut in cuts if not cut.grad.opaque]  # a maybe-dependency proves no break
    for cut in sorted(certain, key=lambda c: (c.brk.span, c.brk.code)):
        seen.setdefault((cut.brk.span, cut.brk.via), cut)
    return list(seen.values())


def diagnostics_for(analysis: Analysis) -> list[Diagnostic]:
    rules = all_rules()
    break_rules = {r.code: r() for r in rules if issubclass(r, BreakRule)}
    found = break_diagnostics(analysis, break_rules)
    for rule in rules:
        if issubclass(rule, CheckRule):
            found.extend(rule().check(analysis))
    return _deduplicated(found)


def _deduplicated(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per (code, range): the most severe one, when several sinks see a break."""
    best: dict[tuple[str, Span], Diagnostic] = {}
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.span)
        if key not in best or diagnostic.severity.rank < best[key].severity.rank:
            best[key] = diagnostic
    return sorted(best.values(), key=lambda d: (d.span, d.code))
