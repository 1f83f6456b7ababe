"""The shipped no-gradient data must match the installed TensorFlow.

TensorFlow is a required test dependency (``pip install .[test]``): these
tests import it unconditionally and are never skipped.
"""

import json
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "scripts"))

import generate_no_gradient_ops  # noqa: E402

DATA_PATH = REPO_ROOT / "rules" / "model" / "data" / "no_gradient_ops.json"
REGENERATE = "re-run `python scripts/generate_no_gradient_ops.py`"

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
}
MUST_NOT_INCLUDE = ["tensorflow.sign", "tensorflow.math.sign",
                    "tensorflow.cast", "tensorflow.dtypes.cast"]


@pytest.fixture(scope="module")
def generated():
    return generate_no_gradient_ops.generate()


@pytest.fixture(scope="module")
def shipped():
    return json.loads(DATA_PATH.read_text(encoding="utf-8"))


def test_shipped_data_matches_installed_tensorflow(generated, shipped):
    new, old = generated["functions"], shipped["functions"]
    added = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    changed = sorted(name for name in set(new) & set(old)
                     if new[name] != old[name])
    assert new == old, (
        "%s is out of date for TensorFlow %s / Keras %s (shipped data is "
        "for TensorFlow %s / Keras %s); %s.\n  added: %s\n  removed: %s\n"
        "  changed: %s" % (
            DATA_PATH.relative_to(REPO_ROOT), generated["tensorflow"],
            generated["keras"], shipped.get("tensorflow"),
            shipped.get("keras"), REGENERATE, added, removed, changed))
    assert {k: v for k, v in generated.items() if k != "functions"} == \
        {k: v for k, v in shipped.items() if k != "functions"}, REGENERATE


def test_shipped_file_is_canonical_json(shipped):
    text = DATA_PATH.read_text(encoding="utf-8")
    assert text == generate_no_gradient_ops.dumps(shipped), REGENERATE


def test_known_functions_and_categories(generated):
    functions = generated["functions"]
    for name, category in MUST_INCLUDE.items():
        assert name in functions, "%s missing from the generated data" % name
        assert functions[name]["category"] == category, (
            name, functions[name])
        assert functions[name]["ops"], name
    for name in MUST_NOT_INCLUDE:
        assert name not in functions, (
            "%s has a (zero or dtype-dependent) gradient and must not be "
            "listed" % name)
    assert functions["tensorflow.round"]["ops"] == ["Round"]
    assert functions["tensorflow.argmax"]["ops"] == ["ArgMax"]
