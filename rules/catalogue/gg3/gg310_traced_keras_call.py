"""GG310: `@tf.function` on the `call` of a Keras 3 layer or model that has sub-layers."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Edit, Related, Safety, Severity, Span
from ...model.library import TF_FUNCTION, is_keras_2_only
from ...model.values import Kind
from ..edits import make_fix
from ..rule import CheckRule



class TracedKerasCall(CheckRule):
    code = "GG310"
    name = "traced-keras-call"
    summary = "`@tf.function` on a Keras 3 layer's `call` can hide its sub-layers' variables from the tape"
    severity = Severity.WARNING
    fixed_outcome = "ok"
    what = "The `call` method of a Keras layer or model of this file is decorated with `@tf.function`, " \
           "and the class has sub-layers (`self.dense = keras.layers.Dense(...)`)."
    why = "Under Keras 3 the sub-layers' variables are created inside the trace of `call` made by its " \
          "first call; a later call that reuses that trace (the same input shapes and types, as a " \
          "training loop's batches have) reads them where the caller's `GradientTape` cannot see it, so " \
          "every gradient for them is `None` — eagerly or inside a traced `train_step` alike. (TensorFlow " \
          "2.21: a model first called on a batch and then trained on batches of that shape gets only " \
          "`None`; one built in its own `__init__` on a batch of one, then trained on larger batches, is " \
          "retraced and trains, so such classes are not reported.) Weights the class creates itself with " \
          "`add_weight` are not affected, and neither is Keras 2 (`tf_keras`, or a file that imports or derives from a name Keras 3 does " \
          "not have, such as `tf.keras.layers.AbstractRNNCell`). Keras traces `call` itself " \
          "when it compiles `fit`/`train_step`; trace the training step instead."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients for the sub-layers' " \
            "variables."
    fix_safety = "The fix removes the decorator from `call`; safe: Keras, or a `@tf.function` on the " \
                 "training step, still traces the call."
    bad = '''\
import numpy as np
import tensorflow as tf
import keras


class Classifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.head = keras.layers.Dense(3)

    @tf.function
    def call(self, x):
        return self.head(self.hidden(x))


model = Classifier()
x = np.random.rand(4, 5).astype("float32")
labels = np.array([0, 1, 2, 1])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(labels, model(x), from_logits=True))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf
import keras


class Classifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.head = keras.layers.Dense(3)

    def call(self, x):
        return self.head(self.hidden(x))


model = Classifier()
x = np.random.rand(4, 5).astype("float32")
labels = np.array([0, 1, 2, 1])


@tf.function
def loss_and_grads(x, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(labels, model(x), from_logits=True))
    return tape.gradient(loss, model.trainable_variables)


grads = loss_and_grads(x, labels)
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for cls in analysis.classes:
            if not cls.is_keras:
                continue
            call = next((m for m in cls.node.body if isinstance(m, ast.FunctionDef) and m.name == "call"), None)
            decorator = next((d for d in call.decorator_list if _is_tf_function(doc, d)), None) if call else None
            if decorator is None:
                continue
            if _keras_2(doc) or any(is_keras_2_only(doc.imports.qualname(base)) for base in cls.node.bases):
                continue  # (`tf.keras.layers.AbstractRNNCell`: a class of Keras 2 alone)
            weightless = _weightless_attributes(doc, cls.node, {c.node.name: c.node for c in analysis.classes})
            sublayers = sorted(key for key, value in cls.attrs.items() if value.kind == Kind.MODEL
                               and not (value.effect is not None and value.effect.weightless)
                               and key not in weightless)
            if not sublayers:
                continue  # its own `add_weight` variables are still seen by the tape
            names = ", ".join(f"`{name}`" for name in sublayers[:3]) + (", ..." if len(sublayers) > 3 else "")
            if _built_in_init(cls.node):
                continue  # built on its own first trace: later batches of other shapes retrace, and train
            message = (f"`@{doc.text(decorator)}` on `{cls.node.name}.call` hides the variables of its sub-layers "
                       f"({names}) from the GradientTape under Keras 3 once the trace that created them is "
                       f"reused: their gradients are None")
            fix = make_fix("Remove the decorator from `call`", Safety.SAFE, [_remove_decorator(doc, decorator)],
                           preferred=True)
            related = (Related(doc.span(call), f"`{cls.node.name}.call`, traced on its own"),)
            out.append(Diagnostic(self.code, self.severity, message, doc.span(decorator), related, (fix,)))
        return out


def _weightless_attributes(doc, cls: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> set[str]:
    """`self.layer = CustomLayer()` where `CustomLayer` is a plain `Layer` of this file that makes
    no variable: a sub-layer with nothing to lose (saved-model tests trace such calls on purpose)."""
    out = set()
    for method in cls.body:
        if not (isinstance(method, ast.FunctionDef) and method.name in ("__init__", "build")):
            continue
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name) and node.value.func.id in classes:
                if not _makes_variables(doc, classes[node.value.func.id]):
                    out |= {doc.text(t) for t in node.targets if isinstance(t, ast.Attribute)}
    return out


def _makes_variables(doc, cls: ast.ClassDef) -> bool:
    plain = all((doc.imports.qualname(b) or "").rsplit(".", 1)[-1] in ("Layer", "Model") for b in cls.bases)
    if not plain:
        return True  # `class MyDense(keras.layers.Dense)`: the base makes them
    for node in ast.walk(cls):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            qual = doc.imports.qualname(node.func) or ""
            if name in ("add_weight", "add_variable", "Variable") or qual.startswith(("keras.layers.", "keras.Sequential")):
                return True
    return False


def _built_in_init(cls: ast.ClassDef) -> bool:
    """`self(tf.constant(...))` or `self.build(...)` in `__init__` (tf2rl's models)."""
    for method in cls.body:
        if isinstance(method, ast.FunctionDef) and method.name == "__init__":
            for node in ast.walk(method):
                if isinstance(node, ast.Call) and (
                        isinstance(node.func, ast.Name) and node.func.id == "self"
                        or isinstance(node.func, ast.Attribute) and node.func.attr == "build"
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
                    return True
    return False


def _is_tf_function(doc, decorator: ast.AST) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return doc.imports.qualname(target) in TF_FUNCTION


def _keras_2(doc) -> bool:
    """The file runs Keras 2 (`tf_keras`, `TF_USE_LEGACY_KERAS`, or it imports a name only Keras 2
    has), where a traced `call` trains."""
    return doc.ask(_mentions_legacy_keras) or bool(doc.imports.keras_2_names) \
        or any(map(is_keras_2_only, doc.imports.aliases.values()))


def _mentions_legacy_keras(doc) -> bool:
    """A question about the whole module (`doc.ask`): anywhere in it, not only in this part."""
    return doc.contains("TF_USE_LEGACY_KERAS")


def _remove_decorator(doc, decorator: ast.AST) -> Edit:
    """The decorator's whole line, `@` and indentation included."""
    span = doc.span(decorator)
    return Edit(Span(span.line, 0, span.end_line + 1, 0), "")
