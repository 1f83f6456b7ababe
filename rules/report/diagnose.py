"""Turns an `Analysis` into diagnostics: the shared break report plus every check rule."""
from __future__ import annotations

from ..catalogue.registry import all_rules, break_rules
from ..catalogue.rule import CheckRule
from ..diagnostics import Diagnostic, Span
from ..model.facts import Analysis
from .breaks import break_diagnostics


def diagnostics_for(analysis: Analysis) -> list[Diagnostic]:
    found = break_diagnostics(analysis, {rule.code: rule for rule in break_rules()})
    for rule in all_rules():
        if issubclass(rule, CheckRule):
            found.extend(rule().check(analysis))
    return deduplicated(found)


def deduplicated(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per (code, range): the most severe one, when several sinks see a break."""
    best: dict[tuple[str, Span], Diagnostic] = {}
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.span)
        if key not in best or diagnostic.severity.rank < best[key].severity.rank:
            best[key] = diagnostic
    return sorted(best.values(), key=lambda d: (d.span, d.code))
