"""The shipped no-gradient data must match the installed TensorFlow and Keras.

TensorFlow is a required test dependency (``pip install .[test]``): the tests
that use the ``generated`` or ``tf`` fixture import it unconditionally and are
never skipped (tests/conftest.py marks them ``tf``; the others need neither
TensorFlow nor Keras and run in the fast loop).  The full scan
(``python scripts/generate_no_gradient_ops.py``) takes 40-70 s on the shared
2-core machine; the fixture regenerates a deterministic sample instead: every
shipped entry (so that no listed function has become differentiable), every
name a test below asserts on, and one candidate name in SAMPLE_STRIDE of the
rest (so that a function that lost its gradient is likely noticed).  The
TensorFlow/Keras versions recorded in the data must be the installed ones, so an
upgrade without regeneration fails here.
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
    # Unique has no registered gradient; its first output is x's values (floats), not indices.
    "tensorflow.unique": "other",
    "tensorflow.unique_with_counts": "other",
    # Keras 3 ops (TensorFlow backend), under every module that exposes them.
    "keras.ops.round": "rounding",
    "keras.ops.numpy.round": "rounding",
    "keras.ops.argmax": "index",
    "keras.ops.numpy.argmax": "index",
    "keras.ops.one_hot": "other",
    "keras.ops.nn.one_hot": "other",
    "keras.ops.greater": "comparison",
    "keras.ops.unique": "other",
    # Keras 2's backend (tf_keras.backend), as code spells it: `K.argmax`.
    "keras.backend.argmax": "index",
    "keras.backend.round": "rounding",
    # Samplers of integers (the Multinomial ops are registered not differentiable).
    "tensorflow.random.categorical": "other",
    "tensorflow.random.stateless_categorical": "other",
    "keras.random.categorical": "other",
    # TensorFlow Probability, under its canonical names.
    "tensorflow_probability.stats.histogram": "other",
    "tensorflow_probability.stats.find_bins": "other",
    # Raw ops, from the op registry: no entry at all (LookupError) or not differentiable.
    "tensorflow.raw_ops.AudioSpectrogram": "other",
    "tensorflow.raw_ops.Mfcc": "other",
    "tensorflow.raw_ops.Unique": "other",
    "tensorflow.raw_ops.Multinomial": "other",
    "tensorflow.raw_ops.Bucketize": "index",
    "tensorflow.raw_ops.Equal": "comparison",
    "tensorflow.raw_ops.Shape": "other",
    "tensorflow.raw_ops.ArgMax": "index",  # a gradient function, but only an integer output
}
LOOKUP_ERROR = ["tensorflow.image.adjust_contrast", "tensorflow.image.adjust_saturation",
                "tensorflow.truncatemod", "keras.ops.unique", "tensorflow.raw_ops.AudioSpectrogram",
                "tensorflow.raw_ops.Mfcc", "tensorflow.raw_ops.Unique"]
# A zero gradient (sign) is a gradient; casts depend on their dtype; the other
# ops pass gradient to their float input; top_k's values have a gradient (only
# its indices are listed, under "outputs"); `K.in_train_phase(x, alt)` is
# never called (it answers differently inside `fit`).
MUST_NOT_INCLUDE = ["tensorflow.sign", "tensorflow.math.sign", "keras.ops.sign",
                    "tensorflow.cast", "tensorflow.dtypes.cast", "keras.ops.cast",
                    "keras.backend.cast", "tensorflow.math.abs", "tensorflow.nn.relu",
                    "tensorflow.gather", "tensorflow.math.segment_sum",
                    "tensorflow.math.top_k", "keras.ops.top_k", "tensorflow.image.rgb_to_grayscale",
                    "tensorflow.linalg.matmul", "keras.backend.in_train_phase",
                    # Random values of a float parameter have a gradient (reparameterised) or
                    # the function is not about x: not listed.
                    "keras.random.dropout", "tensorflow.random.normal",
                    "tensorflow_probability.stats.variance", "tensorflow_probability.math.log_cosh",
                    # Raw ops with a gradient function (whether it returns None needs an op
                    # instance: not listed), and ops that call a function (PartitionedCall: the
                    # tape differentiates the function).
                    "tensorflow.raw_ops.MatMul", "tensorflow.raw_ops.Round",
                    "tensorflow.raw_ops.Sign", "tensorflow.raw_ops.PartitionedCall",
                    "tensorflow.raw_ops.StatefulPartitionedCall"]


@pytest.fixture(scope="module")
def tf():
    """TensorFlow, for the tests that run it (tests/conftest.py marks the tests that take it `tf`)."""
    import tensorflow

    return tensorflow


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
    for prefix in ("tensorflow.random.", "keras.random.", "tensorflow_probability.stats.",
                   "tensorflow_probability.math."):
        assert any(n.startswith(prefix) for n in names), prefix
    assert len([n for n in names if n.startswith("tensorflow.raw_ops.")]) > 1000
    assert "tensorflow.random.set_seed" not in names


def test_raw_op_entries_come_from_the_registry(shipped, tf):
    """Every listed raw op has no gradient function in TensorFlow's registry (not differentiable,
    or no entry at all: then the tape raises when an output is float) or only integer outputs
    (ArgMax), and its `args` are the op's inputs, by the keyword names `tf.raw_ops` takes."""
    from tensorflow.python.framework import op_def_registry, ops

    raw = {name: e for name, e in shipped["functions"].items() if name.startswith("tensorflow.raw_ops.")}
    assert len(raw) > 200, len(raw)
    for name, e in raw.items():
        op_type = name.rsplit(".", 1)[1]
        op_def = op_def_registry.get(op_type)
        try:
            registered = ops._gradient_registry.lookup(op_type)
        except LookupError:
            assert e["tape"] in ("LookupError", "none"), (name, e)
        else:
            assert e["tape"] == "none", (name, e)
            if registered is not None:  # a gradient function: only for ops without float outputs
                allowed = {a.name: list(a.allowed_values.list.type) for a in op_def.attr}
                for arg in op_def.output_arg:
                    types = [arg.type] if arg.type else allowed[arg.type_attr]
                    assert types and not any(tf.dtypes.as_dtype(t).is_floating for t in types), (name, arg)
        assert [a for a, _ in e["args"]] == [arg.name for arg in op_def.input_arg], name
        assert e["ops"] == [op_type]
        assert not any(attr.type in ("func", "list(func)") for attr in op_def.attr), name
        assert callable(getattr(tf.raw_ops, op_type))


def _tape_outcome(tf, x, call):
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = call(x)
        outs = out if isinstance(out, (tuple, list)) else [out]
        loss = tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32)) for t in outs])
    try:
        return "none" if tape.gradient(loss, x) is None else "gradient"
    except LookupError:
        return "LookupError"


def test_real_tapes_agree_on_samplers_tfp_and_raw_ops(shipped, tf):
    """Checked with tapes directly: each call's outcome is the entry's `tape`."""
    import warnings

    import keras
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # TFP's distutils version check
        import tensorflow_probability as tfp

    logits = tf.constant([[0.1, 0.5, 0.3], [0.2, 0.2, 0.9]])
    flat = tf.constant([0.2, 0.7, 0.4, 0.9, 0.1, 0.4])
    audio = tf.constant([[((i * 37) % 101) / 101.0 - 0.5] for i in range(1200)])
    calls = {
        "tensorflow.random.categorical": (logits, lambda x: tf.random.categorical(x, 2)),
        "tensorflow.random.stateless_categorical": (
            logits, lambda x: tf.random.stateless_categorical(x, 2, seed=[3, 4])),
        "keras.random.categorical": (logits, lambda x: keras.random.categorical(x, 2, seed=1)),
        "tensorflow_probability.stats.histogram": (
            flat, lambda x: tfp.stats.histogram(x, tf.linspace(0.0, 1.0, 5))),
        "tensorflow.unique": (flat, lambda x: tf.unique(x)[0]),
        "tensorflow.raw_ops.Unique": (flat, lambda x: tf.raw_ops.Unique(x=x)[0]),
        "tensorflow.raw_ops.AudioSpectrogram": (audio, lambda x: tf.raw_ops.AudioSpectrogram(
            input=x, window_size=256, stride=128)),
        "tensorflow.raw_ops.Mfcc": (
            tf.random.stateless_uniform([1, 4, 129], seed=[1, 2]),
            lambda x: tf.raw_ops.Mfcc(spectrogram=x, sample_rate=16000)),
        "tensorflow.raw_ops.Multinomial": (logits, lambda x: tf.raw_ops.Multinomial(
            logits=x, num_samples=2)),
        "tensorflow.raw_ops.Bucketize": (flat, lambda x: tf.raw_ops.Bucketize(
            input=x, boundaries=[0.3, 0.6])),
        "tensorflow.raw_ops.Shape": (flat, lambda x: tf.raw_ops.Shape(input=x)),
        "tensorflow.raw_ops.ArgMax": (logits, lambda x: tf.raw_ops.ArgMax(input=x, dimension=1)),
        "tensorflow.raw_ops.Equal": (flat, lambda x: tf.raw_ops.Equal(x=x, y=flat)),
        "tensorflow.raw_ops.AdjustContrastv2": (
            tf.reshape(logits, (1, 2, 3, 1)),
            lambda x: tf.raw_ops.AdjustContrastv2(images=x, contrast_factor=2.0)),
        "tensorflow.raw_ops.HistogramFixedWidth": (flat, lambda x: tf.raw_ops.HistogramFixedWidth(
            values=x, value_range=[0.0, 1.0], nbins=4)),
    }
    for name, (x, call) in calls.items():
        assert _tape_outcome(tf, x, call) == shipped["functions"][name]["tape"], name
    # Not listed: a gradient (matmul), or a gradient function (Sign's is zero, not None).
    assert _tape_outcome(tf, logits, lambda x: tf.raw_ops.Sign(x=x)) == "gradient"
    assert _tape_outcome(tf, logits, lambda x: keras.random.dropout(x, 0.5, seed=1)) == "gradient"
    assert _tape_outcome(tf, flat, lambda x: tfp.stats.variance(x)) == "gradient"


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
    ("import tensorflow as tf\ntf.random.categorical(logits, 1)", "other"),
    ("import keras\nkeras.random.categorical(logits, 1)", "other"),
    ("import tensorflow_probability as tfp\ntfp.stats.histogram(x, edges)", "other"),
    ("from tensorflow_probability import stats\nstats.find_bins(x, edges)", "other"),
    ("import tensorflow as tf\ntf.raw_ops.Mfcc(spectrogram=s, sample_rate=r)", "other"),
    ("from tensorflow import raw_ops\nraw_ops.Bucketize(input=x, boundaries=b)", "index"),
    ("import tensorflow as tf\ntf.raw_ops.MatMul(a=x, b=w)", None),
    ("import tensorflow_probability as tfp\ntfp.math.log_cosh(x)", None),
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
