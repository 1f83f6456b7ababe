"""The shared shape of the GG4xx rules: a TensorFlow op without gradient on the only path."""
from __future__ import annotations

from ...model.no_gradient import category, raises_lookup_error
from ..rule import BreakRule


class NoGradientOp(BreakRule):
    """Matches the functions of one category of `data/no_gradient_ops.json`."""

    category: str = ""
    verb = "goes through"

    def match(self, site):
        if site.qualname and site.qualname.endswith(".where") and len(site.args) > 1:
            return None  # `tf.where(cond, a, b)` is differentiable in `a` and `b`
        if category(site.qualname) == self.category:
            registered = " registered" if raises_lookup_error(site.qualname) else ""
            return f"`{site.doc.text(site.node.func)}`, which has no{registered} gradient"
        return None

    def value_node(self, site):
        if raises_lookup_error(site.qualname) and sum(bool(v.live) for v in site.inputs()) > 1:
            return site.node  # every input loses its gradient: the call is what goes through
        return None

    def raises(self, site):
        return raises_lookup_error(site.qualname)

    def cut_inputs(self, site):
        if raises_lookup_error(site.qualname):
            return site.inputs()  # no gradient registered: not for any of its inputs
        return site.args[:1] if site.args else site.inputs()
