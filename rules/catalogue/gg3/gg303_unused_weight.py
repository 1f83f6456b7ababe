"""GG303: a weight created in a layer or model but never used in `call`."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Severity
from ..rule import CheckRule

_SETUP_METHODS = {"__init__", "build", "get_config", "from_config", "compute_output_shape"}


class UnusedWeight(CheckRule):
    code = "GG303"
    name = "weight-never-used"
    summary = "a trainable weight is created but never used in `call`, so its gradient is always None"
    severity = Severity.WARNING
    fixed_outcome = "nofix"
    what = "A Keras layer or model creates a trainable weight (`self.add_weight`, `tf.Variable`) in " \
           "`__init__` or `build`, but no other method of the class reads it."
    why = "The weight is part of `trainable_variables` but not of the computation, so its gradient is " \
          "`None`. Keras 3's `apply_gradients` only warns (\"Gradients do not exist for variables\") when " \
          "some gradients are `None`, so the bug is easy to miss; a forgotten bias is the usual cause."
    error = "`UserWarning: Gradients do not exist for variables [...] when minimizing the loss`, and a " \
            "`None` in the list returned by `tape.gradient`."
    fix_safety = "No automatic fix: use the weight in `call` or stop creating it."
    bad = '''\
import numpy as np
import tensorflow as tf


class Linear(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="random_normal")
        self.b = self.add_weight(shape=(1,), initializer="zeros")

    def call(self, inputs):
        return tf.matmul(inputs, self.w)


layer = Linear()
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - layer(x)))
grads = tape.gradient(loss, layer.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf


class Linear(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="random_normal")
        self.b = self.add_weight(shape=(1,), initializer="zeros")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


layer = Linear()
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - layer(x)))
grads = tape.gradient(loss, layer.trainable_variables)
'''

    def check(self, analysis):
        out = []
        doc = analysis.doc
        for cls in analysis.classes:
            if not cls.is_keras:
                continue
            methods = [m for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if not any(m.name == "call" for m in methods):
                continue
            read = {n.attr for m in methods if m.name not in _SETUP_METHODS for n in ast.walk(m)
                    if _is_self_attribute(n) and isinstance(n.ctx, ast.Load)}
            for method in methods:
                if method.name not in ("__init__", "build"):
                    continue
                for target, call in _created_weights(method, doc):
                    if target.attr not in read:
                        message = (f"`self.{target.attr}` is a trainable weight of `{cls.node.name}` that no "
                                   f"method uses, so its gradient is always None")
                        out.append(Diagnostic(self.code, self.severity, message, doc.span(target)))
        return out


def _is_self_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _created_weights(method, doc):
    for stmt in ast.walk(method):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_self_attribute(stmt.targets[0])):
            continue
        call = stmt.value
        if not isinstance(call, ast.Call) or any(
                k.arg == "trainable" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in call.keywords):
            continue
        is_add_weight = isinstance(call.func, ast.Attribute) and call.func.attr in ("add_weight", "add_variable")
        if is_add_weight or doc.imports.qualname(call.func) == "tensorflow.Variable":
            yield stmt.targets[0], call
