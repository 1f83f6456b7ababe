"""GG312: a functional model's symbolic Keras tensor (`model.input`, `layer.output`) given to a
tape's `watch` or `gradient`, instead of a tensor the tape saw computed."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Edit, Safety, Span
from ...model.facts import SinkKind
from ..edits import make_fix, replace
from ..rule import CheckRule

_INPUTS = ("input", "inputs")


class SymbolicKerasTensor(CheckRule):
    code = "GG312"
    name = "symbolic-keras-tensor"
    summary = "a tape watches or differentiates `model.input` / `layer.output`, a symbolic KerasTensor, not the batch"
    bad_outcome = "raises AttributeError"
    what = "`tape.gradient(loss, model.input)`, `tape.watch(model.inputs)` or `tape.gradient(loss, " \
           "model.get_layer(name).output)`: the sources or the watched value are a functional model's " \
           "symbolic tensors (Keras `KerasTensor`s), the placeholders the model was built on, instead " \
           "of a tensor computed in the tape. It is the usual slip in saliency maps and Grad-CAM ported " \
           "from TensorFlow 1's `K.gradients(loss, model.input)`."
    why = "A functional model's `input` and its layers' `output` describe the graph; calling the model " \
          "on a batch runs new computations, and no batch ever flows through those placeholders. The " \
          "tape never saw them, and they are not even `tf.Tensor`s: TensorFlow refuses them."
    error = "`tape.gradient`: `AttributeError: 'KerasTensor' object has no attribute '_id'`; " \
            "`tape.watch`: `ValueError: Passed in object <KerasTensor ...> of type 'KerasTensor', not " \
            "tf.Tensor or tf.Variable or ExtensionType`."
    fix_safety = "For `model.input`, when the tape calls the model on a name bound to a TensorFlow " \
                 "tensor (`x = tf.convert_to_tensor(images)`), the fix watches and differentiates that " \
                 "tensor instead (safe: the gradient asked for is the one with respect to the model's " \
                 "input). An intermediate `layer.output` needs a model that returns it " \
                 "(`keras.Model(model.inputs, [layer.output, model.output])`), called inside the tape; " \
                 "that is not written automatically."
    bad = '''\
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(8,))
hidden = keras.layers.Dense(16, activation="relu")(inputs)
model = keras.Model(inputs, keras.layers.Dense(3)(hidden))

images = tf.convert_to_tensor(np.random.rand(4, 8).astype("float32"))
with tf.GradientTape() as tape:
    scores = model(images)
    top = tf.reduce_max(scores, axis=1)
saliency = tape.gradient(top, model.input)
'''
    good = '''\
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(8,))
hidden = keras.layers.Dense(16, activation="relu")(inputs)
model = keras.Model(inputs, keras.layers.Dense(3)(hidden))

images = tf.convert_to_tensor(np.random.rand(4, 8).astype("float32"))
with tf.GradientTape() as tape:
    tape.watch(images)
    scores = model(images)
    top = tf.reduce_max(scores, axis=1)
saliency = tape.gradient(top, images)
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for sink in analysis.sinks:
            if sink.kind is not SinkKind.GRADIENT or sink.sources is None:
                continue
            for item in sink.sources:
                if item.value.role == "symbolic":
                    out.append(self._source(doc, analysis, sink, item.node))
        for node, tape in analysis.symbolic_watches.values():
            out.append(self._watched(doc, node, tape))
        return out

    def _source(self, doc, analysis, sink, node) -> Diagnostic:
        text = doc.short(node)
        kind = _what(node)
        message = (f"`{text}` is {kind}, a symbolic KerasTensor that no batch flows through: "
                   f"{sink.named} raises AttributeError ('KerasTensor' object has no attribute '_id'); "
                   + _advice(node))
        fixes = ()
        batch = _batch_tensor(doc, node, sink.tape)
        if batch is not None:
            edits = [Edit(doc.span(node), batch)]
            if not _watches(doc, analysis, sink.tape, batch):
                first = sink.tape.with_node.body[0]
                indent = doc.line_indent(first.lineno)
                edits.append(Edit(Span(first.lineno, 0, first.lineno, 0),
                                  f"{indent}{sink.tape.name}.watch({batch}){doc.newline}"))
            fixes = (make_fix(f"Differentiate with respect to `{batch}`, the tensor the model is called on",
                              Safety.SAFE, edits, preferred=True),)
        return Diagnostic(self.code, self.severity, message, doc.span(node), (), fixes)

    def _watched(self, doc, node, tape) -> Diagnostic:
        text = doc.short(node)
        message = (f"`{text}` is {_what(node)}, a symbolic KerasTensor that no batch flows through: "
                   f"`watch` raises ValueError; " + _advice(node))
        batch = _batch_tensor(doc, node, tape)
        fixes = () if batch is None else (
            make_fix(f"Watch `{batch}`, the tensor the model is called on", Safety.SAFE,
                     [replace(doc, node, batch)], preferred=True),)
        return Diagnostic(self.code, self.severity, message, doc.span(node), (), fixes)


def _what(node: ast.AST) -> str:
    attribute = node.attr if isinstance(node, ast.Attribute) else ""
    return "the functional model's input" if attribute in _INPUTS else "a functional model's output"


def _advice(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute) and node.attr in _INPUTS:
        return "watch and differentiate the tensor you call the model on"
    return ("build a model that returns it (`keras.Model(model.inputs, [layer.output, model.output])`), call "
            "that inside the tape and differentiate with respect to what it returns")


def _batch_tensor(doc, node: ast.AST, tape) -> str | None:
    """The name of the TensorFlow tensor the model of `node` (`model` in `model.input`) is called on
    inside `tape`'s `with` block, when the file binds it from a `tf.*` call: watching it is safe.
    (A NumPy batch would have to be converted first; no fix is offered then.)"""
    if tape is None or tape.with_node is None or not isinstance(node, ast.Attribute) or node.attr not in _INPUTS:
        return None
    model = doc.text(node.value)
    names = {call.args[0].id for stmt in tape.with_node.body for call in ast.walk(stmt)
             if isinstance(call, ast.Call) and doc.text(call.func) == model and call.args
             and isinstance(call.args[0], ast.Name)}
    if len(names) != 1:
        return None
    name = names.pop()
    binding = _last_binding(doc, name, tape.with_node)
    if binding is None or not isinstance(binding.value, ast.Call):
        return None
    qualname = doc.imports.qualname(binding.value.func) or ""
    return name if qualname.startswith("tensorflow.") else None


def _last_binding(doc, name: str, before: ast.stmt) -> ast.Assign | None:
    """The last `name = ...` before `before` in the same scope (None if any other statement binds it)."""
    scope = doc.scope_of(before)
    found = None
    for stmt in doc.nodes_of(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr):
        if stmt.lineno >= before.lineno or doc.scope_of(stmt) is not scope:
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        if isinstance(stmt, ast.With):
            targets = [item.optional_vars for item in stmt.items]
        binds = any(isinstance(n, ast.Name) and n.id == name for t in targets if t is not None for n in ast.walk(t))
        if binds:
            found = stmt if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) else None
            if found is None:
                return None
    return found



def _watches(doc, analysis, tape, name: str) -> bool:
    """`tape` already watches `name`, or watches a symbolic input that its own fix turns into `name`."""
    for stmt in tape.with_node.body:
        for call in ast.walk(stmt):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "watch" \
                    and doc.text(call.func.value) == tape.name and call.args:
                argument = call.args[0]
                if doc.text(argument) == name or id(argument) in analysis.symbolic_watches:
                    return True
    return False
