"""Words shared by the messages of several rules."""
from __future__ import annotations

from ..model.facts import Sink, SinkKind
from ..model.values import Origin


def sink_phrase(sink: Sink, dead: list[Origin], partial: bool) -> str:
    names = ", ".join(f"`{o.variables_text()}`" for o in dead)
    if sink.kind is SinkKind.LOSS_FUNCTION:
        return f"{sink.label} returns a loss with no gradient for {names}"
    tail = " (other variables still get theirs)" if partial else ""
    return f"the loss given to {sink.label} gets no gradient for {names}{tail}"
