"""Which TensorFlow, `keras.ops` and `keras.backend` functions have no gradient, as generated from TensorFlow itself.

The data is written by `scripts/generate_no_gradient_ops.py` (its docstring says how each entry is
decided) and checked against the installed TensorFlow and Keras by `tests/test_no_gradient_data.py`;
the analyzer itself never imports TensorFlow. Names are gradguard's canonical qualified names
(`rules.source.imports.canonical`): `tensorflow.histogram_fixed_width`, `keras.ops.argmax` (also
reached as `from keras import ops; ops.argmax`, `tf.keras.ops.argmax`), `keras.ops.numpy.round`,
`keras.backend.round` (Keras 2's `K.round`, scanned from `tf_keras.backend`), the samplers
`tensorflow.random.categorical` / `keras.random.categorical`, TensorFlow Probability's
`tensorflow_probability.stats.histogram` (and `tfp.math`), and `tensorflow.raw_ops.Mfcc`: raw ops
(keyword-only arguments) are read from TensorFlow's op and gradient registries, an entry per op with
no gradient function, its `args` the op's input names.

Each entry of `functions` says, for a call whose first argument carries gradient:
  category  "rounding", "index", "comparison" or "other" (which GG4xx rule reports it)
  ops       the TensorFlow ops where the gradient stops
  tape      "none": `tape.gradient` returns None; "LookupError": it raises, the op has no registered
            gradient at all (`tf.image.adjust_contrast`)
  args      the call TensorFlow was tried with, one `[parameter, status]` per argument, status
            "none"/"LookupError"/"gradient" for float tensor arguments
`outputs` lists, for functions that return a tuple with a gradient on some outputs only, the outputs
without one (`tensorflow.math.top_k` → `indices`), by field name (or position, for plain tuples),
with the output's position.
"""
from __future__ import annotations

import functools
import json
import os


@functools.cache
def _data() -> dict:
    # Beside this module, as the package's data is installed (read directly: importlib.resources
    # would cost a check more to import than reading the file does).
    path = os.path.join(os.path.dirname(__file__), "data", "no_gradient_ops.json")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _functions() -> dict[str, dict]:
    return _data()["functions"]


def entry(qualname: str | None) -> dict | None:
    """The whole entry of a function without gradient (see the module docstring), or None."""
    return _functions().get(qualname) if qualname else None


def category(qualname: str | None) -> str | None:
    """"rounding", "index", "comparison", "other" — or None when the function has a gradient."""
    found = entry(qualname)
    return found["category"] if found else None


def raises_lookup_error(qualname: str | None) -> bool:
    """True when TensorFlow has no registered gradient for the function: `tape.gradient` raises
    `LookupError` instead of returning None."""
    found = entry(qualname)
    return bool(found) and found.get("tape") == "LookupError"


def output_category(qualname: str | None, output: str | int) -> str | None:
    """The category of one output of a tuple-returning function that has no gradient while its other
    outputs have one: `output_category("tensorflow.math.top_k", "indices")` (or position `1`) →
    "index"; None otherwise."""
    if not qualname:
        return None
    outputs = _data()["outputs"].get(qualname)
    if not outputs:
        return None
    found = outputs.get(str(output))
    if found is None and isinstance(output, int):
        found = next((o for o in outputs.values() if o.get("position") == output), None)
    return found["category"] if found else None


def outputs(qualname: str | None) -> dict[str, dict]:
    """The outputs without gradient of a tuple-returning function whose other outputs have one,
    by name: `outputs("tensorflow.math.top_k")` → `{"indices": {"position": 1, ...}}`."""
    return _data()["outputs"].get(qualname, {}) if qualname else {}
