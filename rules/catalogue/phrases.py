"""Words shared by the messages of several rules."""
from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import Related, Span
from ..model.conventions import DOCS
from ..model.facts import Sink, SinkKind
from ..model.values import Origin
from ..source.document import Document


def sink_phrase(sink: Sink, dead: list[Origin], partial: bool) -> str:
    names = ", ".join(f"the layers of `{o.name}` {o.part}" if o.part else f"`{o.variables_text()}`" for o in dead)
    if sink.kind is SinkKind.LOSS_FUNCTION:
        return f"{sink.label} returns a loss with no gradient for {names}"
    if sink.kind is SinkKind.FIT:
        tail = " (other layers still train)" if partial else ""
        return f"{sink.label} trains nothing of {names}{tail}"
    tail = " (other variables still get theirs)" if partial else ""
    return f"the loss given to {sink.label} gets no gradient for {names}{tail}"


def guess_notes(doc: Document, *, origins: Iterable[Origin] = (), sink: Sink | None = None,
                td_targets: Iterable[Span] = ()) -> tuple[Related, ...]:
    """Notes for a finding that rests on a name guess (model/conventions.py): the guessed model,
    a model call taken for a TD target from its input's name, a receiver taken for a tape."""
    notes = [Related(origin.span, f"`{origin.name}` is taken for a Keras model only because of its name ({DOCS})")
             for origin in origins if origin.guessed and origin.span is not None]
    notes += [Related(site, f"this call is taken for a TD target only because its input is named like next "
                            f"states ({DOCS})") for site in sorted(set(td_targets))]
    if sink is not None and sink.guessed_tape:
        receiver = sink.node.func.value
        notes.append(Related(doc.span(receiver), f"`{doc.short(receiver)}` is taken for a GradientTape only because "
                                                 f"of its name ({DOCS})"))
    return tuple(notes)


def side_path_consequence(live, origin: Origin) -> str:
    """What a cut prediction leaves: a bootstrapped target trains the whole model; a penalty only
    the weights it depends on (a `kernel_regularizer` leaves the biases with None)."""
    text = f"only {side_paths(live)} still carries a gradient for `{origin.variables_text()}`"
    if any(g.weights and not g.bootstrap for g in live):
        text += ", and only for the weights the penalty depends on (any other gets None)"
    return text + ", so training is silently wrong"


def side_paths(live) -> str:
    """What keeps a gradient when the prediction is cut: a TD target, a weight penalty, or both."""
    kinds = ["the bootstrapped target"] * any(g.bootstrap for g in live) + ["a weight penalty"] * any(
        g.weights and not g.bootstrap for g in live)
    return " and ".join(kinds)
