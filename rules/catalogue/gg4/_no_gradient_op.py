"""The shared shape of the GG4xx rules: a TensorFlow op without gradient on the only path."""
from __future__ import annotations

from ...model.no_gradient import category
from ..rule import BreakRule


class NoGradientOp(BreakRule):
    """Matches the functions of one category of `data/no_gradient_ops.json`."""

    category: str = ""
    verb = "goes through"

    def match(self, site):
        if site.qualname and site.qualname.endswith(".where") and len(site.args) > 1:
            return None  # `tf.where(cond, a, b)` is differentiable in `a` and `b`
        if category(site.qualname) == self.category:
            return f"`{site.doc.text(site.node.func)}`, which has no gradient"
        return None

    def cut_inputs(self, site):
        return site.args[:1] if site.args else site.inputs()
