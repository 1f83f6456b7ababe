"""Which TensorFlow functions have no gradient, as generated from TensorFlow's own registry.

The data is written by `scripts/generate_no_gradient_ops.py` and checked against the installed
TensorFlow by the tests; the analyzer itself never imports TensorFlow.
"""
from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def _functions() -> dict[str, dict]:
    text = resources.files(__package__).joinpath("data/no_gradient_ops.json").read_text(encoding="utf-8")
    return json.loads(text)["functions"]


def category(qualname: str | None) -> str | None:
    """"rounding", "index", "comparison", "other" — or None when the function has a gradient."""
    if not qualname:
        return None
    entry = _functions().get(qualname)
    return entry["category"] if entry else None
