"""The explanation of a sink drawn as a small tree, as `gradguard explain` prints it and the
server's `gradguard.explain` command (the code lens) returns it: each source, the statements from
the model call that starts its gradient to the loss, the break, and the diagnostic that reports it."""
from __future__ import annotations

from collections.abc import Callable

from .explanation import SinkExplanation
from .words import At, cut_by


def sink_branches(explanation: SinkExplanation, at: At, relabel: Callable[[str], str] = str) -> list[str]:
    """The tree's lines under its header (the sink's title), then the ⚠ line for terms cut on the way."""
    branches = []
    for source in explanation.sources:
        children = []
        for step in source.steps:
            notes = []
            if step.start:
                notes.append(f"`{source.origin.name}` starts the gradient here")
            if step.cut and source.brk is not None:
                notes.append(cut_by(source.brk, at))
            tail = f"   ← {'; '.join(notes)}" if notes else ""
            children.append((f"{at(step.span)}  {step.text}{tail}", []))
        if source.diagnostic is not None:
            d = source.diagnostic
            mark = "⚠ " if source.term_cut else ""
            children.append((f"{mark}{d.code} at {at(d.span)}: {relabel(d.message)}", []))
        elif source.unreported:
            children.append(("no diagnostic reports it (another finding says it, a rule that is not selected, "
                             "or a suppression comment)", []))
        branches.append((relabel(source.summary), children))
    lines = draw(branches)
    warnings = explanation.warnings
    if warnings:
        # Exit 0 says every source gets a gradient; a term cut on the way is still a finding of `check`.
        found = ", ".join(f"{d.code} at {at(d.span)}" for d in warnings)
        noun = "warning" if all(d.severity.value == "warning" for d in warnings) else "finding"
        count = f"{len(warnings)} {noun}{'' if len(warnings) == 1 else 's'}"
        lines.append(f"⚠ {count}: a term of the loss is cut ({found}), "
                     f"so training silently ignores it; the sources still get a gradient (exit 0), `check` reports it")
    return lines


def draw(items: list[tuple[str, list]], prefix: str = "") -> list[str]:
    """A tree drawn with box characters, as `tree` draws folders: items are (text, children)."""
    out = []
    for index, (text, children) in enumerate(items):
        last = index == len(items) - 1
        out.append(f"{prefix}{'└── ' if last else '├── '}{text}")
        out.extend(draw(children, prefix + ("    " if last else "│   ")))
    return out
