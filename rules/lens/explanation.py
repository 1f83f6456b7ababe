"""What the lens says about one sink: each source's verdict, the statements on its way, the
diagnostic that reports it (lens.py builds them; tree.py and `gradguard explain` print them)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Span
from ..model.facts import Sink
from ..model.status import Verdict
from ..model.values import Break, Origin
from . import words


@dataclass
class Step:
    """A statement on the way from the gradient's start to the loss."""

    span: Span
    text: str
    start: bool = False   # the model call (variable read) that starts the gradient is here
    cut: bool = False     # the break is here


@dataclass
class SourceExplanation:
    origin: Origin
    verdict: Verdict
    ok: bool | None                      # None: the analysis cannot tell (Verdict.SILENT)
    summary: str                         # "✓ q_net", "✗ target_net: loss never uses it"
    reason: str | None                   # None when it gets its gradient
    start: Span | None
    steps: list[Step] = field(default_factory=list)
    brk: Break | None = None
    diagnostic: Diagnostic | None = None
    unreported: bool = False             # the analysis sees no gradient, but no diagnostic says so
    term_cut: bool = False               # it gets its gradient, but a term cut on the way is reported (a warning)


@dataclass
class SinkExplanation:
    sink: Sink
    sources: list[SourceExplanation]

    @property
    def ok(self) -> bool:
        return all(source.ok is not False for source in self.sources)

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics of terms cut on the way of sources that still get their gradient."""
        return [source.diagnostic for source in self.sources if source.term_cut]

    @property
    def per_source(self) -> list["SourceExplanation"]:
        """One explanation per source (a source cut by two breaks has one for each)."""
        seen: set[Origin] = set()
        first = []
        for source in self.sources:
            if source.origin not in seen:
                seen.add(source.origin)
                first.append(source)
        return first

    @property
    def title(self) -> str:
        sources = self.per_source
        good = sum(source.ok is True for source in sources)
        unknown = sum(source.ok is None for source in sources)
        if not sources:
            return f"{self.sink.label}: no trainable source known"
        return f"{self.sink.label}: {words.count(good, len(sources), unknown)}"
