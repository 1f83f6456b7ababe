"""The corpus in tests/programs: gradguard's findings and TensorFlow's verdict must agree."""
from __future__ import annotations

from pathlib import Path

import pytest

from tensorflow_truth import check_fixed, codes

# Programs whose break gradguard does not find yet; strict, so fixing the gap makes them fail loudly.
KNOWN_GAPS = {
    "bad_custom_layer_floor_quantize.py":
        "a break inside a custom layer's `call`, reached through `keras.Sequential([...])`, is not followed",
    "bad_regression_histogram_loss.py":
        "`tf.histogram_fixed_width` takes two required arguments, which the no-gradient generator does not try",
}

PROGRAMS = sorted(p for p in (Path(__file__).parent / "programs").iterdir() if p.suffix in (".py", ".ipynb"))


def _source(path: Path, harness) -> str:
    text = path.read_text(encoding="utf-8")
    return harness.notebook_source(text) if path.suffix == ".ipynb" else text


def test_corpus_size():
    bad = [p for p in PROGRAMS if p.name.startswith("bad_")]
    ok = [p for p in PROGRAMS if p.name.startswith("ok_")]
    assert len(bad) + len(ok) == len(PROGRAMS)
    assert len(PROGRAMS) >= 60 and len(ok) >= 20


def _marked(path: Path):
    reason = KNOWN_GAPS.get(path.name)
    return pytest.param(path, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else path


@pytest.mark.parametrize("path", [_marked(p) for p in PROGRAMS], ids=lambda p: p.name)
def test_program(path, tf_harness):
    source = _source(path, tf_harness)
    header = tf_harness.parse_header(path.read_text(encoding="utf-8"))
    assert codes(source) == header["expect"], f"{path.name}: gradguard disagrees with the header"
    filename = path.stem + ".py"  # notebooks run as their cells joined in order
    before = tf_harness.run_program(source, filename)
    assert tf_harness.matches(before, header["tensorflow"]), f"{path.name}: {before.describe()}"
    fixed = header.get("fixed")
    if header["expect"] and fixed and fixed != "nofix":
        check_fixed(tf_harness, source, filename, fixed, before)
