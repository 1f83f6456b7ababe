"""Every rule's extra INVALID and VALID snippets (tests/snippets/), pinned as snapshots.

An invalid snippet must be reported by its rule, a valid one must have no finding at all; the
full findings (spans, messages, related locations, fixes and their diffs) of both are pinned in
tests/__snapshots__/test_rule_snippets.ambr. After a deliberate change of what gradguard
reports, regenerate with `pytest tests/test_rule_snippets.py --snapshot-update` and read the diff.
"""
from __future__ import annotations

import pytest

from findings import NO_FINDINGS, render
from gradguard.rules import analyze
from gradguard.rules.catalogue.registry import all_rules
from snippets import all_snippets

RULES = all_rules()
SNIPPETS = all_snippets()
INVALID = [s for s in SNIPPETS if not s.valid]
VALID = [s for s in SNIPPETS if s.valid]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_has_invalid_and_valid_snippets(rule):
    mine = [s for s in SNIPPETS if s.code == rule.code]
    assert any(not s.valid for s in mine), f"{rule.code} has no invalid snippet in tests/snippets/"
    assert any(s.valid for s in mine), f"{rule.code} has no valid snippet in tests/snippets/"


def test_snippets_are_small_well_named_and_for_known_rules():
    codes = {rule.code for rule in RULES}
    ids = [s.id for s in SNIPPETS]
    assert len(ids) == len(set(ids)), "two snippets of one rule share a name"
    for snippet in SNIPPETS:
        assert snippet.code in codes, f"{snippet.id}: no such rule"
        assert 5 <= len(snippet.source.splitlines()) <= 15, f"{snippet.id}: keep snippets to 5-15 lines"
        assert snippet.source.endswith("\n") and not snippet.source.startswith("\n"), snippet.id
        compile(snippet.source, f"{snippet.id}.py", "exec")


def test_snippets_sit_in_the_module_of_their_family():
    from snippets import gg1, gg2, gg3, gg4

    for module in (gg1, gg2, gg3, gg4):
        family = module.__name__.rsplit(".", 1)[1].upper()  # "GG1"
        for snippet in module.SNIPPETS:
            assert snippet.code.startswith(family), f"{snippet.id} belongs in snippets/gg{snippet.code[2]}.py"


@pytest.mark.parametrize("snippet", INVALID, ids=lambda s: s.id)
def test_invalid_snippet(snippet, snapshot):
    findings = analyze(snippet.source, f"{snippet.id}.py")
    assert snippet.code in {d.code for d in findings}, f"{snippet.code} does not report {snippet.id}"
    assert render(snippet.source, findings) == snapshot


@pytest.mark.parametrize("snippet", VALID, ids=lambda s: s.id)
def test_valid_snippet(snippet, snapshot):
    findings = analyze(snippet.source, f"{snippet.id}.py")
    assert [(d.code, d.span.line) for d in findings] == [], f"{snippet.id} is reported"
    assert render(snippet.source, findings) == NO_FINDINGS
    assert render(snippet.source, findings) == snapshot
