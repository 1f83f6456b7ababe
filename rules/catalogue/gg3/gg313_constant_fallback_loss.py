"""GG313: a loss that falls back to a constant on one branch (`else: loss = tf.constant(0.0)`)."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Related, Safety, Severity
from ...model.facts import SinkKind
from ...model.status import Verdict, sink_status
from ...model.values import fallback_span
from ..edits import make_fix, replace, tensorflow_alias
from ..rule import CheckRule

_CONDITIONS = (ast.If, ast.Try, ast.Match, ast.IfExp, ast.ExceptHandler)


class ConstantFallbackLoss(CheckRule):
    code = "GG313"
    name = "constant-fallback-loss"
    summary = "on one branch the loss is a constant (`loss = tf.constant(0.0)`), whose gradients are all None"
    severity = Severity.WARNING
    what = "An `if` or a conditional expression gives a value computed from the model on one branch and " \
           "a constant on another (`else: loss = tf.constant(0.0)`, `... if tf.size(x) > 0 else 0.0`), " \
           "typically for a batch with nothing to learn from (no positive pair, an empty mask), and a loss " \
           "made from that value is differentiated, in the same function or in a caller of a helper " \
           "returning it. When the constant is the whole loss every gradient is lost; when it is one term " \
           "(`class_loss + box_loss`), the variables reached only through that term are. Code traced by " \
           "`tf.function` is not reported: a tensor condition there becomes a `tf.cond`, whose gradient " \
           "is zero on the constant branch."
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
        out, seen = [], set()
        for sink in analysis.sinks:
            # (`minimize(loss_fn)` differentiates `loss_fn()` as a tape would; a loss given to
            # `compile` is traced by `fit` unless `run_eagerly=True`, and a traced branch gives zeros.)
            eager_loss = sink.kind is SinkKind.LOSS_FUNCTION and id(sink.node) in analysis.eager_loss_functions
            if sink.kind not in (SinkKind.GRADIENT, SinkKind.MINIMIZE) and not eager_loss or not sink.target.vanish:
                continue
            live = {o: s.live for o, s in sink_status(analysis, sink).items() if s.verdict is Verdict.LIVE and s.live}
            by_constant: dict = {}
            for key, lost in sink.target.vanish:  # each call of a helper takes the branch or not on its own
                # (a path is its origin and where it starts: the tapes that record it are stamped
                # on the way, after a helper's summary made it)
                lost_paths = {(g.origin, g.site) for g in lost}
                gone = [origin for origin, grads in live.items() if {(g.origin, g.site) for g in grads} <= lost_paths]
                if gone:
                    by_constant.setdefault(fallback_span(key), []).append((key, gone))
            for span in sorted(by_constant, key=lambda s: (s.line, s.col)):
                fallback = analysis.constant_fallbacks.get(span)
                if fallback is None or span in seen or _guarded(doc, fallback, sink):
                    continue
                seen.add(span)
                paths = sorted(by_constant[span], key=lambda pair: repr(pair[0]))
                every = any(len(gone) == len(live) for _, gone in paths)
                out.append(self._finding(doc, fallback, sink, paths, every))
        return out

    def _finding(self, doc, fallback, sink, paths, every: bool) -> Diagnostic:
        constant = doc.short(fallback.node)
        same_scope = doc.scope_of(fallback.branch) is doc.scope_of(sink.node)
        is_the_loss = same_scope and isinstance(sink.target_node, ast.Name) and sink.target_node.id == fallback.name
        loss = (f"{sink.named} (which `fit` differentiates)" if sink.kind is SinkKind.LOSS_FUNCTION
                else f"the loss {sink.label} differentiates")
        if every and is_the_loss and _python_number(fallback.node) is not None:
            outcome = f"{sink.label} raises TypeError (a Python number is not a tensor)"
        elif every:
            outcome = (f"{loss} depends on no variable: every gradient is None "
                       f"(`apply_gradients` raises \"No gradients provided for any variable\")")
        elif len(paths) == 1:
            names = ", ".join(f"`{origin.name}`" for origin in paths[0][1])
            outcome = (f"{loss} no longer depends on {names}: the gradients for "
                       f"{'its' if len(paths[0][1]) == 1 else 'their'} variables are None")
        else:  # a helper called more than once: each call that takes the branch loses its own
            each = "; ".join(f"{', '.join(f'`{o.name}`' for o in gone)} through the call on line {key[-1].line}"
                             for key, gone in paths)
            outcome = (f"{loss} loses what only that call reaches ({each}): "
                       f"their gradients are None")
        message = f"when this branch is taken the value is the constant `{constant}`, and {outcome}"
        related = (Related(doc.span(sink.node), "the loss is differentiated here"),)
        fix = self._zeros_fix(doc, sink, fallback.node) if same_scope else None
        return Diagnostic(self.code, self.severity, message, doc.span(fallback.node), related,
                          (fix,) if fix is not None else ())

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


def _guarded(doc, fallback, sink) -> bool:
    """In the fallback's own scope, the gradient call comes before it or under a condition of its
    own (`if loss != 0: grads = tape.gradient(loss, ...)`): the constant may never reach it. And a
    fallback in a loop proves something only for a gradient call in the same iteration reading the
    name it is bound to (`total += x if c else 0.0` sums iterations that may not take it)."""
    branch = fallback.branch
    scope = doc.scope_of(branch)
    returned = isinstance(doc.parents.get(fallback.node), ast.Return)  # an early return ends the function
    loop = None if returned else doc.loop_around(branch)
    if loop is not None and not (_within(doc, sink.node, loop) and isinstance(sink.target_node, ast.Name)
                                 and sink.target_node.id == fallback.name):
        return True
    if doc.scope_of(sink.node) is not scope:
        return False  # a helper's fallback, returned to the caller: its value is what reaches the sink
    if sink.node.lineno <= (branch.end_lineno or branch.lineno):
        return True
    around_branch = {id(parent) for _, parent in doc.ancestors(branch)}
    return any(id(condition) not in around_branch for condition in _conditions(doc, sink.node, scope))


def _within(doc, node, outer) -> bool:
    return any(parent is outer for _, parent in doc.ancestors(node))


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
