"""What the TensorFlow-verified tests assert, shared by rule examples and the program corpus."""
from __future__ import annotations

from gradguard.rules import analyze, fix_source


def codes(source: str) -> list[str]:
    return sorted({d.code for d in analyze(source)})


def check_fixed(harness, source: str, filename: str, expectation: str, before) -> str:
    """Apply gradguard's own preferred fixes (unsafe included), run the result, check it."""
    fixed = fix_source(source, filename, unsafe=True)
    assert fixed != source, "gradguard offered no fix"
    compile(fixed, filename, "exec")
    after = harness.run_program(fixed, filename)
    if expectation == "ok":
        assert harness.matches(after, "ok"), f"after the fix: {after.describe()}\n{fixed}"
    elif expectation == "differs":
        assert harness.matches(after, "ok"), f"after the fix: {after.describe()}\n{fixed}"
        assert harness.differs(before, after), "the fix did not change the gradients"
    elif expectation == "noraise":
        assert after.error is None, f"after the fix: {after.describe()}\n{fixed}"
    else:
        raise AssertionError(f"unknown fixed expectation {expectation!r}")
    return fixed
