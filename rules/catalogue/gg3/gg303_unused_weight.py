"""GG303: a weight created in a layer or model but never used in `call`."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Severity
from ...model.sinks import asks_only_zeros
from ...source.walk import walk
from ..rule import CheckRule

_SETUP_METHODS = {"__init__", "build", "get_config", "from_config", "compute_output_shape"}


class UnusedWeight(CheckRule):
    code = "GG303"
    name = "weight-never-used"
    summary = "a trainable weight is created but never used in `call`, so its gradient is always None"
    severity = Severity.WARNING
    fixed_outcome = "nofix"
    what = "A Keras layer or model creates a trainable weight (`self.add_weight`, `tf.Variable`) in " \
           "`__init__` or `build`, but no other method of the class reads it: it is never used, or it is " \
           "only transformed once where it is made (`self.kernel = kernel * self.mask` in `build`) and " \
           "`call` uses the result."
    why = "The weight is part of `trainable_variables` but not of the computation, so its gradient is " \
          "`None`. Keras 3's `apply_gradients` only warns (\"Gradients do not exist for variables\") when " \
          "some gradients are `None`, so the bug is easy to miss; a forgotten bias is the usual cause."
    error = "`UserWarning: Gradients do not exist for variables [...] when minimizing the loss`, and a " \
            "`None` in the list returned by `tape.gradient`."
    fix_safety = "No automatic fix: use the weight in `call` (compute a transform of it there, so each " \
                 "step's tape records it) or stop creating it."
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
        if analysis.doc.ask(asks_only_zeros):
            # Every gradient of variables this module asks for is `unconnected_gradients=ZERO`:
            # the weight gets zeros there. (A question about the whole module: the class may be
            # in another part than the training code, source/components.py.)
            return []
        out = []
        doc = analysis.doc
        for cls in analysis.classes:
            if not cls.is_keras:
                continue
            methods = [m for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if not any(m.name == "call" for m in methods):
                continue
            # Read by another method, or by a function a setup method defines (`self.fn = lambda x:
            # x * self.w`): that runs when it is called, `call` among its callers.
            later = [m for m in methods if m.name not in _SETUP_METHODS]
            later += [d for m in methods if m.name in _SETUP_METHODS for d in _deferred(m)]
            read = {n.attr for m in later for n in walk(m) if _is_self_attribute(n) and isinstance(n.ctx, ast.Load)}
            if any(_self_handed_on(doc, m) for m in later):
                continue  # (`helper(self)`, `getattr(self, name)`: may read any weight, `trainable_weights` too)
            for method in methods:
                if method.name not in ("__init__", "build"):
                    continue
                for target, call in _created_weights(method, doc):
                    if isinstance(target, ast.Attribute) and target.attr in read:
                        continue
                    out.append(self._finding(doc, cls, methods, method, target))
        return out

    def _finding(self, doc, cls, methods, method, target) -> Diagnostic:
        name = f"self.{target.attr}" if isinstance(target, ast.Attribute) else target.id
        derived = _derived_in_setup(methods, method, target)
        if derived:
            message = (f"`{name}` is a trainable weight of `{cls.node.name}` that only `{method.name}` reads, to "
                       f"compute `{derived}` once: `call` uses that tensor, computed when the layer was built and "
                       f"recorded by no later tape, so the gradient for `{name}` is None (compute it in `call`)")
        else:
            message = (f"`{name}` is a trainable weight of `{cls.node.name}` that no method uses, so its gradient "
                       f"is always None")
        return Diagnostic(self.code, self.severity, message, doc.span(target))


def _self_handed_on(doc, method: ast.AST) -> bool:
    """`self` itself is read in the method, not only an attribute of it: whoever is given it may
    read any of its weights."""
    parents = doc.parents
    for node in walk(method):
        if isinstance(node, ast.Name) and node.id == "self" and isinstance(node.ctx, ast.Load):
            parent = parents.get(node)
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return True
    return False


def _is_self_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _created_weights(method, doc):
    """`self.w = self.add_weight(...)` and `w = self.add_weight(...)` (a local the method may
    transform and store: `self.kernel = w * mask`), trainable ones only."""
    for stmt in walk(method):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and (_is_self_attribute(stmt.targets[0]) or isinstance(stmt.targets[0], ast.Name))):
            continue
        call = stmt.value
        if not isinstance(call, ast.Call) or any(
                k.arg == "trainable" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in call.keywords):
            continue
        is_add_weight = isinstance(call.func, ast.Attribute) and call.func.attr in ("add_weight", "add_variable")
        if is_add_weight or doc.imports.qualname(call.func) == "tensorflow.Variable":
            if isinstance(stmt.targets[0], ast.Name) and not _only_transformed(method, stmt.targets[0].id):
                continue  # `w = self.add_weight(...)` then `self.w = w`, a list, a call: used as the weight
            yield stmt.targets[0], call


def _deferred(method) -> list[ast.AST]:
    """The lambdas and functions defined inside a method: their bodies run when they are called."""
    return [n for n in walk(method) if n is not method and isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef))]


def _reads(node: ast.AST, target: ast.AST) -> bool:
    if isinstance(target, ast.Attribute):
        return any(_is_self_attribute(n) and n.attr == target.attr and isinstance(n.ctx, ast.Load) for n in ast.walk(node))
    return any(isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load) for n in ast.walk(node))


def _derived_in_setup(methods, method, target) -> str | None:
    """`self.kernel = kernel * self.mask` in a setup method: the attribute computed from the weight
    there (an operation on it, not the weight itself stored under another name)."""
    scopes = [method] if isinstance(target, ast.Name) else [m for m in methods if m.name in _SETUP_METHODS]
    for scope in scopes:
        for stmt in ast.walk(scope):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _is_self_attribute(stmt.targets[0]) \
                    and not isinstance(stmt.value, (ast.Name, ast.Attribute)) and _reads(stmt.value, target):
                return f"self.{stmt.targets[0].attr}"
    return None


def _only_transformed(method, name: str) -> bool:
    """A local weight that the method never reads, or reads only to compute (through other locals:
    `norm = tf.reduce_sum(kernel ** 2)`) a value it stores on `self` (`self.kernel = kernel / norm`).
    Read in any other way (`self.w = w`, `self.ws.append(w)`, `setattr(...)`), it may well be used
    as the weight itself."""
    assigns = [stmt for stmt in ast.walk(method) if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1]
    tainted, allowed = {name}, set()
    changed = True
    while changed:  # the locals computed from the weight, and the reads that compute them
        changed = False
        for stmt in assigns:
            target, value = stmt.targets[0], stmt.value
            reads_taint = any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(value))
            if not reads_taint or isinstance(value, (ast.Name, ast.Attribute)):
                continue
            if isinstance(target, ast.Name) and target.id not in tainted:
                tainted.add(target.id)
                changed = True
            if isinstance(target, ast.Name) or _is_self_attribute(target):
                allowed |= {id(n) for n in ast.walk(value)}
    allowed -= {id(n) for d in _deferred(method) for n in walk(d)}  # (read when called: maybe by `call`)
    reads = [n for n in ast.walk(method) if isinstance(n, ast.Name) and n.id in tainted and isinstance(n.ctx, ast.Load)]
    return all(id(n) in allowed for n in reads)
