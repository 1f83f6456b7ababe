"""How the gradient of each differentiated origin reaches a sink: the question most rules ask.

For one sink (`tape.gradient`, a loss function, `minimize`) and each origin whose variables are
differentiated, its paths to the target are live (the tape can differentiate them), cut (a break
on the way) or untaped (the tape never recorded them). From those, `verdict` decides in one place
what went wrong for the origin, and so which rule reports it: each rule declares the verdict it
`owns`, and two rules never report the same origin of the same sink.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..diagnostics import Severity
from .facts import Analysis, Sink, watched_key
from .values import Cut, Grad, Kind, Origin, OriginKind


class Verdict(enum.Enum):
    """What happened to one origin's gradient at one sink, in the order `verdict` decides it."""

    LIVE = "live"                # it gets its gradient
    # The prediction's paths are all cut; only a bootstrapped TD target or a weight penalty still
    # carries a gradient: training runs and is silently wrong.
    TARGET_ONLY = "target-only"
    UNRECORDED = "unrecorded"    # a path the sink's tape never recorded (the first thing to fix)
    REBOUND = "rebound"          # the variable was replaced by a tensor computed from it
    CUT = "cut"                  # every path the tape recorded is cut by a break
    INTEGER = "integer"          # an integer variable: never differentiable
    UNTOUCHED = "untouched"      # the loss never uses it
    SILENT = "silent"            # nothing to say that another finding does not say better


@dataclass(eq=False, repr=False)
class OriginStatus:
    live: list[Grad] = field(default_factory=list)     # paths the sink's tape can differentiate
    cuts: list[Cut] = field(default_factory=list)      # paths cut by a break
    untaped: list[Grad] = field(default_factory=list)  # paths the tape never recorded
    # Paths cut before the tape recorded them (`agent_infos = {"log_std": log_std.numpy()}` from
    # a forward pass before the tape): a constant for this sink, on purpose or not; only a dead
    # term of the loss's own sum says it was not.
    untaped_cuts: list[Cut] = field(default_factory=list)
    verdict: Verdict = Verdict.LIVE


def sink_status(analysis: Analysis, sink: Sink) -> dict[Origin, OriginStatus]:
    """For each differentiated origin of a sink, how its paths reach the target, and the verdict.

    Computed once per sink: the break report and several check rules ask about the same sinks."""
    cached = analysis.statuses.get(id(sink))
    if cached is None:
        cached = analysis.statuses[id(sink)] = _sink_status(sink, analysis.variables_rebound_from_themselves(),
                                                            analysis.parts)
    return cached


def _sink_status(sink: Sink, rebound: set[Origin], parts: dict[str, set[Origin]]) -> dict[Origin, OriginStatus]:
    # In a stable order: which origin a message names must not change from one run to the next.
    ordered = sorted(differentiated(sink, parts), key=lambda o: (o.key, o.name, o.kind.value))
    status: dict[Origin, OriginStatus] = {o: OriginStatus() for o in ordered}
    for grad in sink.target.live:
        if grad.origin in status:
            # An opaque path (a model handed to a function nobody can see) may or may not use the
            # model, wherever it ran: it never proves a lost gradient.
            recorded = grad.opaque or tape_records(sink, grad)
            (status[grad.origin].live if recorded else status[grad.origin].untaped).append(grad)
    for cut in sink.target.cut:
        if cut.grad.origin in status:
            (status[cut.grad.origin].cuts if tape_records(sink, cut.grad) else status[cut.grad.origin].untaped_cuts).append(cut)
    for origin, paths in status.items():
        paths.verdict = verdict(sink, status, origin, paths, rebound)
    return status


def verdict(sink: Sink, status: dict[Origin, OriginStatus], origin: Origin, paths: OriginStatus,
            rebound: set[Origin]) -> Verdict:
    """Which rule's business the origin is: the precedence of the GG3 checks and the break report."""
    if paths.live and origin.integer:
        return Verdict.INTEGER  # an integer variable has no gradient, whatever reads it (GG306)
    if paths.live:
        cut_prediction = any(not c.grad.bootstrap and not c.grad.weights for c in paths.cuts)
        only_side_paths = all(g.bootstrap or g.weights for g in paths.live)
        if only_side_paths and cut_prediction:
            return Verdict.TARGET_ONLY
        if only_side_paths and any(not g.bootstrap and not g.weights for g in paths.untaped):
            # The prediction was computed outside the tape; only a weight penalty (or a TD target)
            # added inside it still carries a gradient: GG301, said as a partial loss.
            return Verdict.REBOUND if origin in rebound else Verdict.UNRECORDED
        return Verdict.LIVE
    if paths.untaped:
        if only_target_untaped(sink, status, paths):
            # Only a TD target computed before the tape uses it: the wrong variables were asked for.
            return Verdict.SILENT if paths.cuts or origin.integer else Verdict.UNTOUCHED
        return Verdict.REBOUND if origin in rebound else Verdict.UNRECORDED
    if paths.cuts:
        return Verdict.CUT
    if origin.integer:
        return Verdict.INTEGER
    if origin.kind is OriginKind.WATCHED and sink.tape is not None and sink.tape.watches_untracked:
        return Verdict.SILENT  # the tape watched things the model cannot name: this one may be among them
    # The loss uses something taken for a model only from its name (`self.collect_policy`): it
    # may well be, or wrap, the model asked about.
    return Verdict.SILENT if _uses_a_guessed_model(sink, status) else Verdict.UNTOUCHED


def _uses_a_guessed_model(sink: Sink, status: dict[Origin, OriginStatus]) -> bool:
    return any(g.origin.guessed and g.origin not in status for g in sink.target.live)


def live_elsewhere(sink: Sink, status: dict[Origin, OriginStatus]) -> bool:
    """The loss does get a gradient from some model the sink was not asked about."""
    return any(g.origin not in status and tape_records(sink, g) for g in sink.target.live)


def only_target_untaped(sink: Sink, status: dict[Origin, OriginStatus], paths: OriginStatus) -> bool:
    """The model's only use is a TD target computed before the tape, while the loss is built from
    another model: the wrong variables were asked for (GG302), not a forward pass outside (GG301)."""
    return all(g.bootstrap for g in paths.untaped) and live_elsewhere(sink, status)


def differentiated(sink: Sink, parts: dict[str, set[Origin]] | None = None) -> set[Origin]:
    """The origins whose gradient the sink asks for: its sources', or, when the sources are not
    known, whatever the target depends on that the sink's tape can differentiate (its variables,
    and the tensors that tape itself watched)."""
    if sink.sources is not None:
        asked = set().union(*(item.origins for item in sink.sources))
        # A model's variables nobody can name among them (`model.trainable_variables` of a model
        # made by an unknown call) may be those of any model the loss reads, or of none: no claim
        # rests on which.
        keys = {o.key for item in sink.sources if item.value.role != "subset" for o in item.origins}
        grads = [*sink.target.live, *(c.grad for c in sink.target.cut)]
        used_parts = {g.origin for g in grads if g.origin.part_of is not None and g.origin.part_of in keys}
        # Every layer of a multi-output model whose output the loss uses: the unused heads too.
        # (Only then: another model may be bound to the same name elsewhere.)
        known = set().union(*((parts or {}).get(o.key, set()) for o in used_parts))
        return asked | known | used_parts
    live = {g.origin for g in sink.target.live}
    # A function's parameter (`actions` of `get_loss`) is not known to be trained: no claim about it.
    origins = {o for o in live | {c.grad.origin for c in sink.target.cut}
               if not _watched_by_another_tape(o, sink) and o.kind is not OriginKind.PARAM}
    # What reaches the loss only as a constant on purpose (through `tf.stop_gradient`, or as a TD
    # target) is not what the sink differentiates; a loss function's prediction always is.
    return {o for o in origins if o in live or o.kind is OriginKind.Y_PRED or not _only_held_constant(o, sink)}


def _only_held_constant(origin: Origin, sink: Sink) -> bool:
    cuts = [c for c in sink.target.cut if c.grad.origin == origin]
    return all(c.brk.deliberate or c.grad.bootstrap for c in cuts)


def _watched_by_another_tape(origin: Origin, sink: Sink) -> bool:
    return (origin.kind is OriginKind.WATCHED and sink.tape is not None
            and not origin.key.startswith(watched_key(sink.tape, "")))


def tape_records(sink: Sink, grad: Grad) -> bool:
    return sink.tape is None or grad.tapes is None or sink.tape.id in grad.tapes


def dead_severity(status: dict[Origin, OriginStatus]) -> Severity:
    """`error` when no differentiated origin keeps a gradient, else `warning`."""
    return Severity.WARNING if any(s.live for s in status.values()) else Severity.ERROR
