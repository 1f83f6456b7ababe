"""The shared shape of the GG4xx rules: a TensorFlow op without gradient on the only path."""
from __future__ import annotations

import ast

from ...model.no_gradient import category, entry, output_category, raises_lookup_error
from ..rule import BreakRule


class NoGradientOp(BreakRule):
    """Matches the functions of one category of `data/no_gradient_ops.json`."""

    category: str = ""
    verb = "goes through"

    def match(self, site):
        if site.output is not None:
            if output_category(site.qualname, site.output) == self.category:
                return f"`{site.doc.text(site.node.func)}(...).{site.output}`, which has no gradient"
            return None
        if site.qualname and site.qualname.endswith(".where") and len(site.args) > 1:
            return None  # `tf.where(cond, a, b)` is differentiable in `a` and `b`
        if category(site.qualname) == self.category:
            registered = " registered" if raises_lookup_error(site.qualname) else ""
            return f"`{site.doc.text(site.node.func)}`, which has no{registered} gradient"
        return None

    def value_node(self, site):
        if site.output is not None:
            return site.node.args[0] if isinstance(site.node, ast.Call) and site.node.args else site.node
        if raises_lookup_error(site.qualname) and sum(bool(v.live) for v in site.inputs()) > 1:
            return site.node  # every input loses its gradient: the call is what goes through
        cut = {id(v) for v in self.cut_inputs(site)}
        # The argument that carried the gradient in (`searchsorted(edges, scores)`: `scores`;
        # `tf.raw_ops.Bucketize(input=scores, ...)`: `scores`).
        positional = next((site.arg_node(i) for i, v in enumerate(site.args) if v.live and id(v) in cut), None)
        return positional or next((site.keyword_node(name) for name, v in site.keywords.items()
                                   if v.live and id(v) in cut), None)

    def raises(self, site):
        return raises_lookup_error(site.qualname)

    def cut_inputs(self, site):
        if site.output is not None or raises_lookup_error(site.qualname):
            return site.inputs()  # no gradient registered: not for any of its inputs
        # The arguments TensorFlow gives no gradient (`searchsorted`'s values, the second); the
        # first always, as before the table recorded arguments.
        statuses = (entry(site.qualname) or {}).get("args", [])
        cut = [value for index, value in enumerate(site.args)
               if index == 0 or index < len(statuses) and statuses[index][1] in ("none", "LookupError")]
        names = {name for name, status in statuses if status in ("none", "LookupError")}
        cut += [value for name, value in site.keywords.items() if name in names]
        return cut or site.inputs()
