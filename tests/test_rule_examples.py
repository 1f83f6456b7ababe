"""Every rule's own bad and good examples, checked statically and with real TensorFlow.

The full findings on each example (spans, messages, related locations, fixes and their diffs)
are pinned in tests/__snapshots__/test_rule_examples.ambr; after a deliberate change of what
gradguard reports, regenerate with `pytest tests/test_rule_examples.py --snapshot-update` and
read the diff.
"""
from __future__ import annotations

import inspect
import re
from collections import Counter
from pathlib import Path

import pytest

from findings import NO_FINDINGS, render
from gradguard.rules import analyze
from gradguard.rules.catalogue.registry import all_rules
from tensorflow_truth import check_fixed, codes

RULES = all_rules()


def test_catalogue_is_complete():
    repeated = [code for code, count in Counter(r.code for r in RULES).items() if count > 1]
    assert repeated == [], f"two rules share a code: {repeated}"
    assert len(RULES) >= 23
    for rule in RULES:
        assert re.fullmatch(r"GG[1-4]\d\d", rule.code), rule.code
        module = Path(inspect.getfile(rule))
        assert module.name.startswith(rule.code.lower() + "_"), f"{rule.code} is defined in {module.name}"
        family = f"gg{rule.code[2]}"  # GG1xx in catalogue/gg1, ...
        assert (module.parent.parent.name, module.parent.name) == ("catalogue", family), \
            f"{rule.code} is defined in {module}, not in catalogue/{family}"
    for rule in RULES:
        for attribute in ("name", "summary", "what", "why", "error", "bad", "good", "fix_safety"):
            assert getattr(rule, attribute, "").strip(), f"{rule.code} lacks {attribute}"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_bad_example_is_reported(rule, snapshot):
    """Its rule reports it, and every finding on it is exactly the pinned one."""
    findings = analyze(rule.bad)
    assert rule.code in codes(rule.bad)
    assert render(rule.bad, findings) == snapshot


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_good_example_is_silent(rule, snapshot):
    findings = analyze(rule.good)
    assert codes(rule.good) == []
    assert render(rule.good, findings) == NO_FINDINGS
    assert render(rule.good, findings) == snapshot


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_fix_availability_matches_docs(rule):
    findings = [d for d in analyze(rule.bad) if d.code == rule.code]
    has_fix = any(d.fixes for d in findings)
    assert has_fix == (rule.fixed_outcome != "nofix")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_tensorflow_confirms_bad_good_and_fixed(rule, tf_harness):
    before = tf_harness.run_program(rule.bad, f"{rule.code}_bad.py")
    assert tf_harness.matches(before, rule.bad_outcome), before.describe()
    good = tf_harness.run_program(rule.good, f"{rule.code}_good.py")
    assert tf_harness.matches(good, "ok"), good.describe()
    if rule.fixed_outcome != "nofix":
        check_fixed(tf_harness, rule.bad, f"{rule.code}_fixed.py", rule.fixed_outcome, before)


def test_rule_docs_are_up_to_date():
    """docs/rules/*.md are generated from the rules; a changed rule needs `python scripts/gen_rule_docs.py`."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_rule_docs.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
