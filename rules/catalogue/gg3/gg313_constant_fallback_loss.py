"""GG313: a loss that falls back to a constant on one branch (`else: loss = tf.constant(0.0)`)."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Related, Safety, Severity
from ...model.facts import SinkKind
from ..edits import make_fix, replace, tensorflow_alias
from ..rule import CheckRule

_CONDITIONS = (ast.If, ast.Try, ast.Match, ast.IfExp, ast.ExceptHandler)


class ConstantFallbackLoss(CheckRule):
    code = "GG313"
    name = "constant-fallback-loss"
    summary = "on one branch the loss is a constant (`loss = tf.constant(0.0)`), whose gradients are all None"
    severity = Severity.WARNING
    what = "An `if` gives the loss a value computed from the model on one branch and a constant on " \
           "another (`else: loss = tf.constant(0.0)`, `loss = 0.0`), typically for a batch with nothing " \
           "to learn from (no positive pair, an empty mask), and the loss is then differentiated. " \
           "Code traced by `tf.function` is not reported: a tensor condition there becomes a `tf.cond`, " \
           "whose gradient is zero on the constant branch."
    why = "Eagerly only the branch taken runs. On the constant branch the loss depends on no variable, so " \
          "`tape.gradient` returns None for every one; the training loop works on most batches and fails " \
          "on the first batch that takes that branch."
    error = "`ValueError: No gradients provided for any variable` from `apply_gradients` (Keras 3), or a " \
            "`TypeError` where the gradients are used, on the batches that take the constant branch."
    fix_safety = "The fix keeps the constant's value but adds zero times the sum of the variables asked " \
                 "about (`0.0 + 0.0 * tf.add_n([tf.reduce_sum(v) for v in tf.nest.flatten(sources)])`), so " \
                 "that branch gives zero gradients instead of None. (`unconnected_gradients=ZERO` fails on " \
                 "Keras 3 variables, whose dtype is a string.) Unsafe: an optimizer with momentum " \
                 "still moves the weights on such a step; skipping the update on that branch is the other " \
                 "way, which needs the loop's own structure."
    bad = '''\
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(8, 4).astype("float32")
labels = np.zeros(8, dtype="float32")  # a batch without a positive example

with tf.GradientTape() as tape:
    scores = tf.squeeze(model(x), axis=1)
    positives = tf.boolean_mask(scores, labels > 0)
    if tf.size(positives) > 0:
        loss = -tf.reduce_mean(positives)
    else:
        loss = tf.constant(0.0)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''
    good = '''\
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(8, 4).astype("float32")
labels = np.zeros(8, dtype="float32")  # a batch without a positive example

with tf.GradientTape() as tape:
    scores = tf.squeeze(model(x), axis=1)
    positives = tf.boolean_mask(scores, labels > 0)
    count = tf.maximum(tf.cast(tf.size(positives), tf.float32), 1.0)
    loss = -tf.reduce_sum(positives) / count
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        sinks = [s for s in analysis.sinks if s.kind is SinkKind.GRADIENT and s.target.live]
        for fallback in analysis.constant_fallbacks.values():
            sink = next((s for s in sinks if _reaches(doc, fallback, s)), None)
            if sink is None:
                continue
            constant = doc.short(fallback.node)
            number = _python_number(fallback.node)
            outcome = (f"{sink.named} on line {sink.node.lineno} raises TypeError (a Python number is not a tensor)"
                       if number is not None else
                       f"{sink.named} on line {sink.node.lineno} returns None for every variable (`apply_gradients` "
                       f"raises \"No gradients provided for any variable\")")
            message = (f"on this branch `{fallback.name}` is the constant `{constant}`, which depends on no "
                       f"variable: whenever the branch runs, {outcome}")
            related = (Related(doc.span(sink.node), f"`{fallback.name}` is differentiated here"),)
            fix = self._zeros_fix(doc, sink, fallback.node)
            out.append(Diagnostic(self.code, self.severity, message, doc.span(fallback.node), related,
                                  (fix,) if fix is not None else ()))
        return out

    def _zeros_fix(self, doc, sink, constant: ast.AST):
        """The constant plus zero times the sources' sum: the same value, now connected to every
        variable asked about, so their gradients are zeros, not None. (`unconnected_gradients=ZERO`
        would be shorter, but fails on Keras 3 variables, whose dtype is a string.)"""
        if sink.source_node is None:
            return None
        alias, imports = tensorflow_alias(doc)
        sources = doc.text(sink.source_node)
        connected = (f"{doc.text(constant)} + 0.0 * {alias}.add_n([{alias}.reduce_sum(v) "
                     f"for v in {alias}.nest.flatten({sources})])")
        return make_fix(f"Keep the value but connect it to `{doc.short(sink.source_node)}` (zero gradients, not None)",
                        Safety.UNSAFE, [replace(doc, constant, connected), *imports], preferred=True)


def _python_number(node: ast.AST) -> float | None:
    """The value of `0.0` or `-1` written as a Python number (None for `tf.constant(0.0)`)."""
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign, node = (-1 if isinstance(node.op, ast.USub) else 1), node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(sign * node.value)
    return None


def _reaches(doc, fallback, sink) -> bool:
    """The constant is what `sink` differentiates: the sink reads the name, after the `if`, in the
    same scope, with nothing binding the name in between and no condition of its own."""
    target, branch = sink.target_node, fallback.branch
    if not (isinstance(target, ast.Name) and target.id == fallback.name) or sink.node.lineno <= branch.end_lineno:
        return False
    scope = _scope(doc, branch)
    if _scope(doc, sink.node) is not scope:
        return False
    around_branch = {id(parent) for _, parent in doc.ancestors(branch)}
    if any(id(condition) not in around_branch for condition in _conditions(doc, sink.node, scope)):
        return False  # `if loss != 0: grads = tape.gradient(loss, ...)`: guarded
    return not any(branch.end_lineno < n.lineno <= sink.node.lineno and _scope(doc, n) is scope
                   for n in doc.nodes_of(ast.Name) if n.id == fallback.name and isinstance(n.ctx, ast.Store))


def _conditions(doc, node, scope) -> list[ast.AST]:
    """The statements around `node`, inside `scope`, that may not run it (loops and `with` blocks
    run what they hold whenever they run at all)."""
    out = []
    for _, parent in doc.ancestors(node):
        if parent is scope:
            break
        if isinstance(parent, _CONDITIONS):
            out.append(parent)
    return out


def _scope(doc, node) -> ast.AST | None:
    return next((parent for _, parent in doc.ancestors(node)
                 if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))), None)
