"""How the gradient of each differentiated origin reaches a sink: the question most rules ask.

For one sink (`tape.gradient`, a loss function, `minimize`) and each origin whose variables are
differentiated, its paths to the target are live (the tape can differentiate them), cut (a break
on the way) or untaped (the tape never recorded them).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Severity
from .engine import Sink
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
