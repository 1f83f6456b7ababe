"""The shipped no-gradient data must match the installed TensorFlow and Keras.

TensorFlow is a required test dependency (``pip install .[test]``): the tests
that use the ``generated`` fixture import it unconditionally and are never
skipped.  The full scan (``python scripts/generate_no_gradient_ops.py``) takes
10-40 s on the shared 2-core machine; the fixture regenerates a deterministic
sample instead: every shipped entry (so that no listed function has become
differentiable), every name a test below asserts on, and one candidate name in
SAMPLE_STRIDE of the rest (so that a function that lost its gradient is
likely noticed).  The TensorFlow/Keras versions recorded in the data must be
the installed ones, so an upgrade without regeneration fails here.
"""

import ast
import json
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "scripts"))

import generate_no_gradient_ops  # noqa: E402
from rules.model import no_gradient  # noqa: E402
from rules.source.imports import Imports  # noqa: E402

DATA_PATH = REPO_ROOT / "rules" / "model" / "data" / "no_gradient_ops.json"
REGENERATE = "re-run `python scripts/generate_no_gradient_ops.py`"
SAMPLE_STRIDE = 6

MUST_INCLUDE = {
    "tensorflow.round": "rounding",
    "tensorflow.math.round": "rounding",
    "tensorflow.math.floor": "rounding",
    "tensorflow.floor": "rounding",
    "tensorflow.math.ceil": "rounding",
    "tensorflow.math.rint": "rounding",
    "tensorflow.argmax": "index",
    "tensorflow.math.argmax": "index",
    "tensorflow.argmin": "index",
    "tensorflow.equal": "comparison",
    "tensorflow.math.equal": "comparison",
    "tensorflow.greater": "comparison",
    "tensorflow.math.greater": "comparison",
    "tensorflow.less": "comparison",
    # Two-argument calls.
    "tensorflow.histogram_fixed_width": "other",
    "tensorflow.searchsorted": "index",
    "tensorflow.math.floordiv": "other",
    # No registered gradient at all: the tape raises LookupError.
    "tensorflow.image.adjust_contrast": "other",
    "tensorflow.truncatemod": "other",
    "tensorflow.unique": "index",
    # Keras 3 ops (TensorFlow backend), under every module that exposes them.
    "keras.ops.round": "rounding",
    "keras.ops.numpy.round": "rounding",
    "keras.ops.argmax": "index",
    "keras.ops.numpy.argmax": "index",
    "keras.ops.one_hot": "other",
    "keras.ops.nn.one_hot": "other",
    "keras.ops.greater": "comparison",
    "keras.ops.unique": "index",
    # Keras 2's backend (tf_keras.backend), as code spells it: `K.argmax`.
    "keras.backend.argmax": "index",
    "keras.backend.round": "rounding",
}
LOOKUP_ERROR = ["tensorflow.image.adjust_contrast", "tensorflow.image.adjust_saturation",
                "tensorflow.truncatemod", "keras.ops.unique"]
# A zero gradient (sign) is a gradient; casts depend on their dtype; the other
# ops pass gradient to their float input; top_k's values have a gradient (only
# its indices are listed, under "outputs"); `K.in_train_phase(x, alt)` is
# never called (it answers differently inside `fit`).
MUST_NOT_INCLUDE = ["tensorflow.sign", "tensorflow.math.sign", "keras.ops.sign",
                    "tensorflow.cast", "tensorflow.dtypes.cast", "keras.ops.cast",
                    "keras.backend.cast", "tensorflow.math.abs", "tensorflow.nn.relu",
                    "tensorflow.gather", "tensorflow.math.segment_sum",
                    "tensorflow.math.top_k", "keras.ops.top_k", "tensorflow.image.rgb_to_grayscale",
                    "tensorflow.linalg.matmul", "keras.backend.in_train_phase"]


@pytest.fixture(scope="module")
def shipped():
    return json.loads(DATA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generated(shipped):
    """(sample of names, data regenerated for the sample, every candidate name)."""
    names = generate_no_gradient_ops.candidate_names()
    sample = set(names[::SAMPLE_STRIDE]) | set(shipped["functions"]) | set(shipped["outputs"])
    sample |= set(MUST_INCLUDE) | set(MUST_NOT_INCLUDE)
    return sample, generate_no_gradient_ops.generate(sample), names


def test_shipped_data_matches_installed_tensorflow(generated, shipped):
    sample, data, _ = generated
    assert {k: v for k, v in data.items() if k not in ("functions", "outputs")} == \
        {k: v for k, v in shipped.items() if k not in ("functions", "outputs")}, (
            "the shipped data is for other versions; %s" % REGENERATE)
    for section in ("functions", "outputs"):
        new = data[section]
        old = {name: entry for name, entry in shipped[section].items() if name in sample}
        added = sorted(set(new) - set(old))
        removed = sorted(set(old) - set(new))
        changed = sorted(name for name in set(new) & set(old) if new[name] != old[name])
        assert new == old, (
            "%s (%s) is out of date for TensorFlow %s / Keras %s; %s.\n  added: %s\n"
            "  removed: %s\n  changed: %s" % (
                DATA_PATH.relative_to(REPO_ROOT), section, data["tensorflow"], data["keras"],
                REGENERATE, added, removed, changed))


def test_every_shipped_name_is_a_candidate_of_the_scan(generated, shipped):
    _, _, names = generated
    assert len(names) > 1000, len(names)  # every namespace of the docstring was enumerated
    for name in list(shipped["functions"]) + list(shipped["outputs"]):
        assert name in names, name
    assert not [n for n in names if n.startswith("tensorflow.strings.")]


def test_shipped_file_is_canonical_json(shipped):
    text = DATA_PATH.read_text(encoding="utf-8")
    assert text == generate_no_gradient_ops.dumps(shipped), REGENERATE
    assert list(shipped["functions"]) == sorted(shipped["functions"])


def test_known_functions_and_categories(generated, shipped):
    sample, data, _ = generated
    functions = shipped["functions"]
    for name, category in MUST_INCLUDE.items():
        assert name in functions, "%s missing from the data" % name
        assert functions[name]["category"] == category, (name, functions[name])
        assert functions[name]["ops"], name
        assert functions[name]["args"][0][1] in ("none", "LookupError"), (name, functions[name])
    for name in MUST_NOT_INCLUDE:
        assert name in sample
        assert name not in functions, (
            "%s has a (zero or dtype-dependent) gradient and must not be listed" % name)
    assert functions["tensorflow.round"]["ops"] == ["Round"]
    assert functions["tensorflow.argmax"]["ops"] == ["ArgMax"]
    assert functions["tensorflow.histogram_fixed_width"]["args"] == [
        ["values", "none"], ["value_range", "none"]]
    assert functions["tensorflow.histogram_fixed_width"]["ops"] == ["HistogramFixedWidth"]
    # The second argument of `tf.math.zeta(x, q)` carries gradient; the first does not.
    assert functions["tensorflow.math.zeta"]["args"] == [["x", "none"], ["q", "gradient"]]
    for name in LOOKUP_ERROR:
        assert functions[name]["tape"] == "LookupError", (name, functions[name])
    assert functions["tensorflow.image.adjust_contrast"]["ops"] == ["AdjustContrastv2"]
    assert functions["tensorflow.round"]["tape"] == "none"
    assert shipped["outputs"]["tensorflow.math.top_k"] == {
        "indices": {"category": "index", "ops": ["TopKV2"], "position": 1, "tape": "none"}}
    assert set(shipped["outputs"]["keras.ops.top_k"]) == {"indices"}
    assert "keras.backend.in_train_phase" not in data["functions"]


def test_the_tape_agrees_on_a_few_entries(generated):
    """What the data says, checked directly with a tape (not through the generator)."""
    import tensorflow as tf

    x = tf.constant([[0.2, 0.7, 0.4], [0.9, 0.1, 0.5]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        hist = tf.histogram_fixed_width(x, [0.0, 1.0], nbins=4)
        top = tf.math.top_k(x, k=2)
        contrast = tf.image.adjust_contrast(tf.reshape(x, (1, 2, 3, 1)), 2.0)
        sign = tf.sign(x)
    assert tape.gradient(tf.cast(hist, tf.float32), x) is None
    assert tape.gradient(tf.cast(top.indices, tf.float32), x) is None
    assert tape.gradient(top.values, x) is not None
    assert tape.gradient(sign, x) is not None  # zero, not None
    with pytest.raises(LookupError, match="AdjustContrastv2"):
        tape.gradient(contrast, x)


def _qualname(source: str) -> str:
    tree = ast.parse(source)
    call = tree.body[-1].value
    return Imports(tree).qualname(call.func)


@pytest.mark.parametrize("source, category", [
    ("import keras\nkeras.ops.round(x)", "rounding"),
    ("from keras import ops\nops.argmax(x)", "index"),
    ("import keras\nkeras.ops.numpy.argmin(x)", "index"),
    ("import tensorflow as tf\ntf.keras.ops.floor(x)", "rounding"),
    ("from tensorflow.keras import backend as K\nK.round(x)", "rounding"),
    ("from keras import backend as K\nK.argmax(x)", "index"),
    ("import tf_keras\ntf_keras.backend.greater(x, y)", "comparison"),
    ("import tensorflow.compat.v1 as tf\ntf.histogram_fixed_width(x, r)", "other"),
    ("import tensorflow as tf\ntf.image.adjust_contrast(x, 2.0)", "other"),
    ("from keras.src.ops import numpy as knp\nknp.round(x)", "rounding"),  # keras.src folds into keras
    ("import tensorflow as tf\ntf.sign(x)", None),
    ("from keras import ops\nops.top_k(x)", None),
])
def test_names_resolve_as_code_spells_them(source, category):
    assert no_gradient.category(_qualname(source)) == category


def test_lookup_helpers():
    assert no_gradient.raises_lookup_error("tensorflow.image.adjust_contrast")
    assert not no_gradient.raises_lookup_error("tensorflow.round")
    assert not no_gradient.raises_lookup_error("tensorflow.sign")
    assert no_gradient.entry("tensorflow.histogram_fixed_width")["category"] == "other"
    assert no_gradient.entry(None) is None
    assert no_gradient.output_category("tensorflow.math.top_k", "indices") == "index"
    assert no_gradient.output_category("tensorflow.math.top_k", 1) == "index"
    assert no_gradient.output_category("keras.ops.top_k", 1) == "index"
    assert no_gradient.output_category("tensorflow.math.top_k", "values") is None
    assert no_gradient.output_category("tensorflow.math.top_k", 0) is None
    assert no_gradient.output_category("tensorflow.round", 0) is None
