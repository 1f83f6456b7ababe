"""Every rule's own bad and good examples, checked statically and with real TensorFlow."""
from __future__ import annotations

import pytest

from gradguard.rules import analyze
from gradguard.rules.registry import all_rules
from tensorflow_truth import check_fixed, codes

RULES = all_rules()


def test_catalogue_is_complete():
    assert [r.code for r in RULES] == sorted(r.code for r in RULES)
    assert len(RULES) >= 23
    for rule in RULES:
        for attribute in ("name", "summary", "what", "why", "error", "bad", "good", "fix_safety"):
            assert getattr(rule, attribute, "").strip(), f"{rule.code} lacks {attribute}"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_bad_example_is_reported(rule):
    assert rule.code in codes(rule.bad)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_good_example_is_silent(rule):
    assert codes(rule.good) == []


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
