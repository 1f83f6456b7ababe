"""The invariants (docs/invariants.md), without TensorFlow: hiding one part of a program behind a
function nobody can see never adds a finding (tests/invariants/opacity.py); the rewrites of
tests/invariants/rewrites.py keep what a program does.

The fixed sample below runs on every program of tests/programs, every rule example and every
program of ../shared/reports; the violations it finds today are listed, one a line, in
tests/invariants/known_opacity_violations.txt. A violation not listed fails the test (a claim
without proof, new); a listed one no longer found fails it too, so that the list only shrinks.
`bench/invariants.py` runs every variant (docs/invariants.md).
"""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from invariants import inputs
from invariants.opacity import OPAQUE, added_findings, gradguard_findings, sample, variants
from invariants.rewrites import rewrites

KNOWN = Path(__file__).parent / "invariants" / "known_opacity_violations.txt"
SEED = 20261207
PER_PROGRAM = 6

PROGRAM = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
w = tf.Variable(1.0)


def scaled(x):
    return x * 2.0


def reads_the_module(x):
    return x * w


with tf.GradientTape() as tape:
    loss = tf.reduce_mean(scaled(model(tf.ones((2, 3)))))
grads = tape.gradient(loss, model.trainable_variables)
'''


def test_a_variant_hides_one_part_and_keeps_every_line_in_place():
    found = list(variants(PROGRAM))
    lines = PROGRAM.splitlines()
    assert {v.kind for v in found} == {"expr", "callee", "result", "argument", "helper"}
    for variant in found:
        ast.parse(variant.source)
        changed = variant.source.splitlines()
        assert changed[0] == "from opaque_helpers import _opaque"
        assert len(changed) == len(lines) + 1
        assert changed[variant.line] != lines[variant.line - 1]  # the hidden part's line, one down
        assert [a for a, b in zip(changed[1:], lines) if a != b] == [changed[variant.line]] or variant.kind == "helper"
    wrapped = next(v for v in found if v.kind == "callee" and v.hidden == "model")
    assert f"{OPAQUE}(model)(tf.ones((2, 3)))" in wrapped.source
    assert wrapped.original_line(16) == 15


def test_only_a_definition_another_module_could_hold_is_moved_there():
    moved = {v.hidden for v in variants(PROGRAM) if v.kind == "helper"}
    assert moved == {"def scaled(x):"}  # (`reads_the_module` reads the module's `w`)
    source = next(v.source for v in variants(PROGRAM) if v.kind == "helper")
    assert "from opaque_helpers import scaled\n\n\n\ndef reads_the_module" in source


def test_the_issue_examples_hold():
    """`_opaque(model)(x)` in the tape: the loss may use the model (no GG302), as issue 36 says."""
    base = frozenset(gradguard_findings(PROGRAM))
    assert base == frozenset()
    for variant in variants(PROGRAM):
        assert added_findings(base, variant, gradguard_findings) == frozenset(), variant.describe()


def _violations() -> set[str]:
    found = set()
    corpora = [inputs.programs(), inputs.examples(), inputs.reports()]
    for name, text in (program for corpus in corpora for program in corpus):
        base = frozenset(gradguard_findings(text))
        for variant in sample(text, PER_PROGRAM, random.Random(f"{SEED}:{name}")):
            added = added_findings(base, variant, gradguard_findings)
            if added:
                codes = " ".join(f"{code}@{line}" for code, line in sorted(added, key=lambda f: (f[1], f[0])))
                found.add(f"{name} {variant.kind}@{variant.line} `{variant.hidden}` adds {codes}")
    return found


def test_opacity_on_a_fixed_sample_of_every_program():
    if not inputs.REPORTS.is_dir():
        pytest.fail(f"{inputs.REPORTS} is missing: the sample is drawn from the public reports too")
    known = {line for line in KNOWN.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}
    found = _violations()
    new, fixed = sorted(found - known), sorted(known - found)
    assert not new, "claims without proof (a finding only the variant has):\n" + "\n".join(new)
    assert not fixed, f"no longer found: remove them from {KNOWN.name}:\n" + "\n".join(fixed)


PLAIN = '''\
import math


class Box:
    def __init__(self, value):
        self.value = value

    def scaled(self, k, *, offset=0.0):
        return self.value * k + offset


def double(x):
    return 2 * x


items = [Box(1.5), Box(-2.0)]
total = sum(double(b.scaled(3, offset=1.0)) for b in items)
print(round(math.fsum([total, double(len(items))]), 6), {"k": total}["k"] > 0)
'''


def test_every_rewrite_keeps_what_the_program_prints_and_its_lines():
    """The rewrites keep semantics: a plain Python program (no TensorFlow) prints the same after
    each one-step and each chained rewrite, and keeps every line where it was."""
    import contextlib
    import io

    def run(source: str) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<rewrite>", "exec"), {"__name__": "__main__"})
        return out.getvalue()

    expected = run(PLAIN)
    found = [*rewrites(PLAIN), *rewrites(PLAIN, random.Random(3), chained=True)]
    assert {r.family.split(":")[0] for r in found} == {"tuple", "dict", "list_loop", "thunk", "forwarding", "partial",
                                                        "map", "getattr", "chain"}
    for rewrite in found:
        assert run(rewrite.source) == expected, rewrite.describe()
        assert len(rewrite.source.splitlines()) == len(PLAIN.splitlines()) + 1
        assert rewrite.source.splitlines()[rewrite.line] != PLAIN.splitlines()[rewrite.line - 1]
