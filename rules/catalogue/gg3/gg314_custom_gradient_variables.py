"""GG314: a `tf.custom_gradient` function reads variables that its `grad` does not handle."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Related, Severity, Span
from ..rule import CheckRule


class CustomGradientVariables(CheckRule):
    code = "GG314"
    name = "custom-gradient-variables"
    summary = "a `@tf.custom_gradient` function reads variables, but its `grad` takes no `variables` or returns None for them"
    severity = Severity.ERROR
    bad_outcome = "raises TypeError"
    fixed_outcome = "nofix"
    what = "A function decorated with `@tf.custom_gradient` reads `tf.Variable`s it is not given as " \
           "arguments (a module variable, a layer's weight through a closure), and the `grad` function it " \
           "returns either takes no `variables` keyword or returns None as the gradients for them."
    why = "TensorFlow records which variables the forward pass reads and asks `grad(dy, variables=...)` " \
          "for their gradients as a second result: that is the only gradient they get, since the custom " \
          "gradient replaces the recorded operations. Without the keyword TensorFlow refuses the function; " \
          "with Nones, the variables never train."
    error = "`TypeError: @tf.custom_gradient grad_fn must accept keyword argument 'variables', since function " \
            "uses variables`, or `None` gradients for those variables."
    fix_safety = "No automatic fix: the gradients with respect to the variables are the function's own " \
                 "mathematics. Give `grad` a `variables=None` keyword and return `(input_grads, [d/dv for v " \
                 "in variables])`."
    bad = '''\
import numpy as np
import tensorflow as tf

scale = tf.Variable(2.0)


@tf.custom_gradient
def scaled(x):
    def grad(dy):
        return dy * scale

    return x * scale, grad


x = tf.constant(np.random.rand(4).astype("float32"))
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(scaled(x))
grads = tape.gradient(loss, [x, scale])
'''
    good = '''\
import numpy as np
import tensorflow as tf

scale = tf.Variable(2.0)


@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * scale, [tf.reduce_sum(dy * x)]

    return x * scale, grad


x = tf.constant(np.random.rand(4).astype("float32"))
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(scaled(x))
grads = tape.gradient(loss, [x, scale])
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for found in sorted(analysis.custom_gradients.values(), key=lambda f: f.grad.lineno):
            names = ", ".join("the layer's own weights" if name == "self" else f"`{name}`" for name in found.variables)
            grad = "the lambda" if isinstance(found.grad, ast.Lambda) else f"`{found.grad.name}`"
            if found.problem == "keyword":
                message = (f"`{found.function.name}` reads {names}, but {grad} takes no `variables` keyword: "
                           f"TensorFlow raises TypeError as soon as a tape records the call; accept "
                           f"`variables=None` and return their gradients as a second result")
            else:
                message = (f"{grad} returns None as the gradients for the variables `{found.function.name}` reads "
                           f"({names}): the custom gradient replaces the recorded ones, so theirs are always None")
            related = (Related(doc.span(found.function), f"`{found.function.name}` is decorated with `tf.custom_gradient`"),)
            out.append(Diagnostic(self.code, self.severity, message, _header(doc, found.grad), related))
        return out


def _header(doc, grad: ast.AST) -> Span:
    """`def grad` (or the whole lambda), not the function's body."""
    span = doc.span(grad)
    if isinstance(grad, ast.Lambda):
        return span
    return Span(span.line, span.col, span.line, span.col + len(f"def {grad.name}"))
