"""TensorFlow as the oracle (tests/oracle/): the generator, the labels, the comparison and the
shrinker, and a seeded sample of generated programs on which gradguard must make no claim that
TensorFlow contradicts (`bench/oracle.py` runs the long version; docs/oracle.md has its table)."""
from __future__ import annotations

import ast
import hashlib
from collections import Counter

import pytest

from oracle import runner
from oracle.claims import Claim, claims_of
from oracle.generator import DIMENSIONS, generate
from oracle.shrink import shrink

CI_SEED = 7
CI_COUNT = 300


# ---------------------------------------------------------------------------- the generator


def test_a_program_is_the_same_text_every_time_and_alone():
    assert generate(3, 41) == generate(3, 41)
    assert generate(3, 41).source != generate(3, 42).source


def test_every_program_compiles_and_names_its_source_groups():
    for index in range(300):
        program = generate(11, index)
        compile(program.source, program.name, "exec")
        lines = program.source.split("\n")
        if program.dims["asked"] in ("fit", "fit_eager"):  # Keras asks for the model's variables itself
            assert program.group_spans == () and len(program.groups) == 1 and ".fit(x, y" in program.source
            continue
        assert len(program.group_spans) == len(program.groups), program.source
        for (line, col, end), group in zip(program.group_spans, program.groups):
            assert lines[line - 1][col:end] == group


def test_every_dimension_value_is_generated():
    seen = Counter((dim, generate(5, index).dims[dim]) for index in range(1500) for dim in DIMENSIONS)
    missing = [(dim, value) for dim, values in DIMENSIONS.items() for value in values if not seen[dim, value]]
    assert not missing


# Programs whose values of the later dimensions are the first ones: their text (and so their
# cached TensorFlow labels) is the text they had before those dimensions existed. The first
# digest is of a text from before `asked` and `flow_extra`; the last three of texts at 12407c5,
# before `scope` and `effect` (whose draws moved 20261202:0, 20261202:2 and 7:0, pinned here
# before, off their first values); the last, a text from before `closure` (whose draw moved 7:5 off
# its first value).
_TEXTS_BEFORE_THE_LATER_DIMENSIONS = {
    (20261202, 1522): "9435fab36f3a64abdfb321f38fbb9b022803770ac7d909fe5c56fe5c5c59ad70",
    (20261202, 11): "1398b2143f668cae6769345defdf94927f305d9bc9d7e027df784b22a892886b",
    (20261202, 9): "1bae180d5db62e0f2c8cecfc7b3ad16be610be7403c5dc3b148b1288be7122d8",
    (20261202, 12): "3189b1ae497bc7009034e79fcf84636cca61bb36bf806cfa96f9b261ca922df0",
}
_FIRST_VALUES = {"asked": "gradient", "flow_extra": "none", "fallback": "none", "construct": "none",
                 "layer_flaw": "none", "scope": "none", "effect": "none", "closure": "none"}


def test_a_later_dimension_at_its_first_value_leaves_the_text_as_it_was():
    for (seed, index), digest in _TEXTS_BEFORE_THE_LATER_DIMENSIONS.items():
        program = generate(seed, index)
        assert {dim: program.dims[dim] for dim in _FIRST_VALUES} == _FIRST_VALUES
        assert hashlib.sha256(program.source.encode()).hexdigest() == digest


def test_the_scopes_are_written_as_they_say():
    programs = [generate(5, index) for index in range(400)]
    by = {value: next(p for p in programs if p.dims["scope"] == value) for value in DIMENSIONS["scope"]}
    assert "apply_fn(lambda y: y + h_" in by["callback_closure"].source
    assert "def make_reader(value):" in by["factory_class"].source and ".read()" in by["factory_class"].source
    assert "outer = self" in by["self_alias_class"].source and "Box(" in by["self_alias_class"].source
    assert "def read(inner):" in by["inner_receiver"].source and ".take()" in by["inner_receiver"].source
    assert not any(text in by["none"].source for text in ("apply_fn", "make_reader", "class Box", "class Holder"))


def test_the_effects_are_written_as_they_say():
    programs = [generate(5, index) for index in range(500)]
    by = {value: next(p for p in programs if p.dims["effect"] == value) for value in DIMENSIONS["effect"]}
    assert "Collector()" in by["method_appends"].source and ".items)" in by["method_appends"].source
    assert "self.push(value)" in by["self_appends"].source and "Buffer().total(" in by["self_appends"].source
    assert "def collect(items, value):" in by["param_appends"].source and "collect(terms_" in by["param_appends"].source
    assert "nonlocal total" in by["nonlocal_total"].source and "summed(" in by["nonlocal_total"].source
    assert "@passthrough" in by["decorated"].source and "ident(" in by["decorated"].source


def test_the_closures_are_written_as_they_say():
    programs = [generate(5, index) for index in range(600)]
    by = {value: next(p for p in programs if p.dims["closure"] == value) for value in DIMENSIONS["closure"]}
    assert "def make_adder(value):" in by["factory_def"].source and "make_adder(h_" in by["factory_def"].source
    assert "return lambda t: t + value" in by["factory_lambda"].source
    assert "def make_scaled(scale):" in by["curried"].source and "make_scaled(1.0)" in by["curried"].source
    assert "def split_pair(value):" in by["tuple_helper"].source and "[0]" in by["tuple_helper"].source
    assert not any(text in by["none"].source for text in ("make_adder", "make_shifted", "make_scaled", "split_pair"))


def test_the_ways_of_asking_are_written_as_they_say():
    programs = [generate(5, index) for index in range(600)]
    by = {value: next(p for p in programs if p.dims["asked"] == value) for value in DIMENSIONS["asked"]}
    assert "unconnected_gradients=" in by["zero"].source
    assert ".minimize(" in by["minimize"].source and "tape.gradient" not in by["minimize"].source
    assert ".fit(x, y" in by["fit"].source and "run_eagerly=True" not in by["fit"].source
    assert "run_eagerly=True" in by["fit_eager"].source
    extra = {value: next(p for p in programs if p.dims["flow_extra"] == value) for value in DIMENSIONS["flow_extra"]}
    assert "AXIS = 1" in extra["axis_const"].source and "axis=AXIS" in extra["axis_const"].source
    assert "def odeint(fn, y0" in extra["ode_helper"].source and "odeint(" in extra["ode_helper"].source


def test_a_fallback_makes_the_last_path_a_constant_on_the_branch_the_run_takes():
    programs = [generate(5, index) for index in range(600)]
    by = {value: next(p for p in programs if p.dims["fallback"] == value) for value in DIMENSIONS["fallback"]}
    never = "tf.reduce_max(tf.abs(x)) > 1e6"  # false on the generator's inputs: the constant's branch runs
    assert f"if {never}:" in by["if_else"].source and "else:" in by["if_else"].source
    assert f" if {never} else " in by["ifexp"].source
    assert f"tf.cond({never}, lambda: " in by["cond"].source
    assert "def unless_large_" in by["early_return"].source and "        return " in by["early_return"].source
    assert all("1e6" not in p.source for p in programs if p.dims["fallback"] == "none")


def test_the_constructs_are_written_as_they_say():
    programs = [generate(5, index) for index in range(900)]
    by = {}
    for p in programs:
        by.setdefault(p.dims["construct_detail"].split(":")[-1], p)  # "added", "left_out", "fit", a variant
    assert "regularizer=" in by["added"].source and ".losses" in by["added"].source
    assert "regularizer=" in by["left_out"].source and ".losses" not in by["left_out"].source
    assert ".fit(x, y" in by["fit"].source and ".losses" not in by["fit"].source
    assert ("def grad(dy):\n        return None" in by["returns_none"].source
            or "lambda dy: None" in by["returns_none"].source)
    assert "def grad(dy, variables=None):" in by["captured_with_variables"].source
    assert "gain = tf.Variable(2.0)" in by["captured_without_variables"].source
    assert "saliency_tape.watch(" in by["inputs"].source and ".inputs)" in by["inputs"].source
    assert "saliency_tape.watch(x_in)" in by["batch"].source
    plain = [p.source for p in programs if p.dims["construct"] == "none"]
    assert not any(w in s for s in plain for w in ("regularizer=", "custom_gradient", "saliency"))


def test_the_layer_flaws_are_written_into_the_first_holders_class():
    programs = [generate(5, index) for index in range(2000)]
    by = {}
    for p in programs:
        by.setdefault(p.dims["layer_flaw_detail"], p)
    assert "        self.kernel = " in by["build_transform"].source
    assert "tf.matmul(inputs, self.kernel)" in by["build_transform"].source
    assert "        kernel = " in by["call_transform"].source and "self.kernel" not in by["call_transform"].source
    assert "features = self.hidden(inputs)\n        return self.head(inputs)" in by["dropped_output"].source
    assert "return self.head(features)" in by["used_output"].source
    assert all(p.dims["holder"] in ("layer_build", "subclassed_model") for p in programs if p.dims["layer_flaw"] != "none")


def test_a_break_on_a_path_is_written_into_the_program():
    program = next(p for p in (generate(5, i) for i in range(400)) if p.dims["break"] == "int_cast_const")
    assert "INDEX_DTYPE = tf.int32" in program.source and "INDEX_DTYPE)" in program.source


# ---------------------------------------------------------------------------- labels and verdicts


def _facts(present, sizes=(), error="", returned_list=True):
    return {"present": present, "sizes": list(sizes), "error": error, "returned_list": returned_list}


def test_labels_from_what_tensorflow_did():
    assert runner.label_of(_facts([[True, True]], [1, 1])) == runner.Label("ok", ("live", "live"), True)
    broken = runner.label_of(_facts([[True, False, False]], [1, 2]))
    assert (broken.status, broken.groups, broken.reason) == ("broken", ("live", "none"), "none")
    twice = runner.label_of(_facts([[True]], [1], "RuntimeError: A non-persistent GradientTape can only be used to "
                                                  "compute one set of gradients"))
    assert (twice.status, twice.reason) == ("broken", "RuntimeError")
    assert runner.label_of(_facts([[True]], [1], "ValueError: shapes do not match")).status == "invalid"
    assert runner.label_of(_facts([], [], "")).status == "invalid"  # no gradient call ran
    assert runner.label_of(_facts([[True]], [1, 0])).status == "invalid"  # a source held no variables
    # `unconnected_gradients=ZERO`: every gradient present (zeros), and TensorFlow's answer without
    # the option noted beside: the label is `ok` (no None), and says zeros were filled in.
    zeros = runner.label_of({**_facts([[True, True]], [1, 1]), "unconnected": [[False, True]]})
    assert (zeros.status, zeros.groups, zeros.zeros) == ("ok", ("live", "live"), True)
    assert not runner.label_of({**_facts([[True]], [1]), "unconnected": [None, [True]]}).zeros  # not the first call
    # Regularizers declared: gradients unchanged when the penalties change mean they were left out.
    left_out = runner.label_of({**_facts([[True]], [1]), "regularization": "left_out"})
    assert (left_out.status, left_out.reason, left_out.gradient_broken) == ("broken", "regularization", False)
    assert runner.label_of({**_facts([[True]], [1]), "regularization": "used"}).status == "ok"
    both = runner.label_of({**_facts([[False]], [1]), "regularization": "left_out"})
    assert (both.status, both.reason, both.gradient_broken) == ("broken", "none", True)
    assert runner.label_of(_facts([[True]], [1])).regularization == "none"  # labels cached before the fact


class _Span:
    def __init__(self, line, col):
        self.line, self.col = line, col


class _Diagnostic:
    def __init__(self, code, line, col, message="m"):
        self.code, self.span, self.message = code, _Span(line, col), message


def test_a_claim_is_judged_by_the_label():
    program = generate(3, 1)
    spans = ((9, 10, 12), (9, 14, 20))
    claims = claims_of([_Diagnostic("GG302", 9, 15), _Diagnostic("GG101", 5, 0), _Diagnostic("GG309", 12, 3)], spans)
    assert [(c.code, c.kind, c.group) for c in claims] == [("GG302", "gradient", 1), ("GG101", "gradient", None),
                                                            ("GG309", "guard", None)]
    # GG302 names the second group: false when TensorFlow gives that group its gradients.
    verdict = runner.judge(program, runner.Label("broken", ("none", "live"), False), claims)
    assert [c.code for c in verdict.false_claims] == ["GG302", "GG309"]  # one tensor returned: no list
    assert verdict.found  # GG101's claim stands: some gradient is None
    agrees = runner.judge(program, runner.Label("broken", ("live", "none"), True), claims)
    assert not agrees.false_claims and agrees.found
    assert runner.judge(program, runner.Label("broken", ("live", "none")), []).missed
    every = runner.judge(program, runner.Label("ok", ("live", "live")), claims[1:2])
    assert every.false_claims == [Claim("GG101", 5, "m", "gradient", None)]


def test_a_regularization_claim_is_judged_by_the_penalties_fact():
    program = generate(3, 1)
    claims = claims_of([_Diagnostic("GG311", 9, 0), _Diagnostic("GG101", 5, 0)], ())
    assert [c.kind for c in claims] == ["regularization", "gradient"]
    left_out = runner.Label("broken", ("live",), True, reason="regularization", regularization="left_out")
    verdict = runner.judge(program, left_out, claims)
    assert [c.code for c in verdict.false_claims] == ["GG101"]  # every gradient is there
    assert verdict.found  # GG311's claim stands
    assert runner.judge(program, left_out, claims[1:]).missed
    used = runner.judge(program, runner.Label("ok", ("live",), True, regularization="used"), claims[:1])
    assert [c.code for c in used.false_claims] == ["GG311"]
    unknown = runner.judge(program, runner.Label("broken", ("none",), True, reason="RuntimeError",
                                                 regularization="unknown"), claims)
    assert not unknown.false_claims and unknown.found  # the run raised: the penalties not judged


# ---------------------------------------------------------------------------- the shrinker


def test_the_shrinker_keeps_only_what_the_disagreement_needs():
    source = ("import tensorflow as tf\n"
              "a = 1\n"
              "b = [2, 3]\n"
              "def unused():\n"
              "    return 4\n"
              "with open('x') as f:\n"
              "    c = tf.cast(a * 2, DT) + len(b)\n")

    def still(candidate: str) -> bool:  # "the disagreement": a cast to DT of something with `a` in it
        tree = ast.parse(candidate)
        return any(isinstance(n, ast.Call) and ast.unparse(n.func) == "tf.cast" and "DT" in ast.unparse(n)
                   and "a" in {x.id for x in ast.walk(n.args[0]) if isinstance(x, ast.Name)} for n in ast.walk(tree))

    small = shrink(source, still)
    assert small == "c = tf.cast(a, DT)\n"


def test_the_shrinker_never_returns_a_program_that_does_not_disagree():
    source = "x = 1\ny = x + 2\n"
    assert shrink(source, lambda s: "y = x" in s) == "y = x\n"


# ---------------------------------------------------------------------------- the sample, with TensorFlow


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    pytest.importorskip("tensorflow")
    cache = runner.LabelCache(tmp_path_factory.mktemp("oracle") / "labels.jsonl")
    return runner.run(CI_SEED, CI_COUNT, jobs=2, cache=cache)


@pytest.mark.tf
def test_no_claim_in_the_sample_is_contradicted_by_tensorflow(sample):
    false = [v.describe() for v in sample if v.false_claims]
    assert not false, "\n".join(false)


@pytest.mark.tf
def test_the_sample_is_mostly_runnable_and_finds_most_breaks(sample):
    valid = [v for v in sample if v.valid]
    broken = [v for v in valid if v.label.status == "broken"]
    assert len(valid) >= 0.9 * len(sample), runner.table(sample)
    assert len(broken) >= 0.3 * len(valid) and sum(v.label.status == "ok" for v in valid) >= 0.3 * len(valid)
    found = sum(v.found for v in broken)
    assert found >= 0.9 * len(broken), runner.table(sample)
