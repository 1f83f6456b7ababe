"""GG308: `optimizer.minimize` on a Keras 3 optimizer, or given a tensor instead of a callable."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Safety, Edit
from ..edits import in_place_of, make_fix, tensorflow_alias
from ..rule import CheckRule
from ...model.library import builds_graphs
from ...model.values import Kind


class MinimizeMisuse(CheckRule):
    code = "GG308"
    name = "minimize-misuse"
    summary = "`optimizer.minimize` does not exist on Keras 3 optimizers, and needs a callable loss in eager mode"
    bad_outcome = "raises AttributeError"
    what = "`optimizer.minimize(...)` is called on a Keras 3 optimizer (`tf.keras.optimizers.Adam()` in " \
           "TensorFlow 2.16+), or is given an already computed loss tensor instead of a function."
    why = "Keras 3 optimizers have no `minimize` method. TF1-style optimizers (`tf.compat.v1.train.*`) " \
          "accept a tensor only in graph mode: in eager mode the loss must be a callable so the optimizer " \
          "can record it on its own tape; a tensor computed earlier was not recorded by anything."
    error = "`AttributeError: 'Adam' object has no attribute 'minimize'`, or `ValueError`/`TypeError` " \
            "about `loss` having to be callable."
    fix_safety = "For a callable loss on a Keras 3 optimizer, the fix rewrites the call into a " \
                 "`GradientTape` block and `apply_gradients`; unsafe because it adds statements."
    bad = '''\
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
optimizer = tf.keras.optimizers.SGD(0.1)


def loss_fn():
    return tf.reduce_sum(tf.square(w))


optimizer.minimize(loss_fn, var_list=[w])
'''
    good = '''\
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
optimizer = tf.keras.optimizers.SGD(0.1)


def loss_fn():
    return tf.reduce_sum(tf.square(w))


with tf.GradientTape() as tape:
    loss = loss_fn()
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        parents = doc.parents
        for minimize in analysis.minimize_calls.values():
            call, optimizer, loss = minimize.node, minimize.optimizer, minimize.loss
            callable_loss = loss.kind == Kind.CALLABLE
            if optimizer.kind == Kind.OPTIMIZER and optimizer.keras3:
                message = (f"`{doc.short(call.func.value)}` is a Keras 3 optimizer: it has no `minimize`; "
                           f"compute the loss in a `tf.GradientTape` and call `apply_gradients`")
                fixes = self._fixes(doc, call, parents) if callable_loss else ()
            elif not callable_loss and _proven_tensor(loss) \
                    and not any(k.arg == "tape" for k in call.keywords) \
                    and not doc.ask(builds_graphs):
                # Keras 2 takes a tensor with its tape, TF1 graph code takes one; the graph test
                # comes last: it reads the whole file.
                message = (f"`minimize` is given the tensor `{doc.short(call.args[0]) if call.args else 'loss'}`; "
                           f"in eager mode it needs a function that computes the loss")
                fixes = ()
            else:
                continue
            out.append(Diagnostic(self.code, self.severity, message, doc.span(call), fixes=fixes))
        return out

    def _fixes(self, doc, call, parents):
        statement = parents.get(call)
        if not isinstance(statement, ast.Expr) or not call.args:
            return ()
        var_list = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "var_list"), None)
        if var_list is None:
            return ()
        alias, imports = tensorflow_alias(doc)
        indent, nl = doc.line_indent(statement.lineno), doc.newline
        variables, optimizer = doc.text(var_list), doc.text(call.func.value)
        loss_fn = call.args[0]
        # `minimize(lambda: (w - 1.0) ** 2, ...)`: the loss is the lambda's body, not a call of it.
        loss = doc.text(loss_fn.body) if isinstance(loss_fn, ast.Lambda) else f"{in_place_of(doc, loss_fn, loss_fn)}()"
        text = (f"with {alias}.GradientTape() as tape:{nl}{indent}    loss = {loss}{nl}"
                f"{indent}grads = tape.gradient(loss, {variables}){nl}"
                f"{indent}{optimizer}.apply_gradients(zip(grads, {variables}))")
        span = doc.span(statement)
        return (make_fix("Rewrite as a `GradientTape` step with `apply_gradients`", Safety.UNSAFE,
                         [Edit(span, text), *imports], preferred=True),)


def _proven_tensor(value) -> bool:
    """A tensor (or array) for sure: of that kind, or carrying a gradient no unknown function
    passed on (what a function nobody can see returns may be a function too)."""
    return value.kind in (Kind.TENSOR, Kind.NUMPY) or any(not g.opaque for g in value.live)
