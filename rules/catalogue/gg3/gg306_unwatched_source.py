"""GG306: a plain tensor or an integer variable given to `tape.gradient` as a source."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Edit, Safety, Span
from ..edits import make_fix
from ...model.facts import SinkKind
from ...model.library import UNTRAINABLE, is_integer_dtype
from ...model.status import Verdict
from ..phrases import guess_notes
from ..rule import CheckRule
from ...model.values import Kind


class UnwatchedSource(CheckRule):
    code = "GG306"
    owns = (Verdict.INTEGER,)  # reported on the source item itself
    name = "unwatched-source"
    summary = "a plain tensor (or integer variable) is a gradient source but the tape never watched it"
    what = "`tape.gradient(loss, x)` is asked for the gradient with respect to a tensor that is not a " \
           "trainable `tf.Variable` and was not passed to `tape.watch`, or with respect to an integer variable. " \
           "It also reports a Keras model given as the sources instead of its `trainable_variables` " \
           "(TensorFlow raises `AttributeError`) and a layer that makes a trainable integer weight " \
           "(`add_weight(..., dtype=\"int32\")`)."
    why = "A tape automatically records only trainable variables. A constant or any other plain tensor is " \
          "recorded only after `tape.watch(x)`, called inside the `with` block before `x` is used. " \
          "Integer tensors are never differentiable."
    error = "`None` gradients, or `ValueError: No gradients provided for any variable`."
    fix_safety = "Inserting `tape.watch(x)` at the start of the `with` block is safe: it only adds recording."
    bad = '''\
import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x ** 2)
dy_dx = tape.gradient(y, x)
'''
    good = '''\
import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(x ** 2)
dy_dx = tape.gradient(y, x)
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for sink in analysis.sinks:
            if sink.kind not in (SinkKind.GRADIENT, SinkKind.MINIMIZE) or sink.sources is None:
                continue
            for item in sink.sources:
                if item.value.role == "symbolic":
                    continue  # `model.input`: a KerasTensor, not a tensor to watch (GG312)
                integer = any(o.integer for o in item.origins)
                if integer:  # (also in `minimize(cost, var_list=[W, b])`)
                    message = f"`{doc.short(item.node)}` is an integer variable: integer tensors never get a gradient"
                    out.append(Diagnostic(self.code, self.severity, message, doc.span(item.node),
                                          guess_notes(doc, sink=sink)))
                elif sink.kind is not SinkKind.GRADIENT:
                    continue  # (what `minimize` differentiates is its own tape's business)
                elif item.value.kind == Kind.MODEL and isinstance(item.node, (ast.Name, ast.Attribute, ast.Subscript)):
                    # `tape.gradient(loss, model)`: TensorFlow wants the variables (AttributeError: '_id')
                    text = f"{doc.text(item.node)}.trainable_variables"
                    message = (f"`{doc.short(item.node)}` is a Keras model, not a list of variables: "
                               f"{sink.named} raises AttributeError; ask for `{text}`")
                    fix = make_fix(f"Differentiate with respect to `{text}`", Safety.SAFE,
                                   [Edit(doc.span(item.node), text)], preferred=True)
                    out.append(Diagnostic(self.code, self.severity, message, doc.span(item.node),
                                          guess_notes(doc, sink=sink), (fix,)))
                elif not item.origins and item.value.kind == Kind.TENSOR and item.value.items is None \
                        and not _may_be_watched(sink):  # (a list of tensors may hold watched ones)
                    what = "a non-trainable variable" if item.value.role == UNTRAINABLE else "a plain tensor"
                    message = (f"`{doc.short(item.node)}` is {what} that the tape never watched; "
                               f"call `{sink.tape.name if sink.tape else 'tape'}.watch({doc.short(item.node)})` "
                               f"inside the `with` block, or its gradient is None")
                    out.append(Diagnostic(self.code, self.severity, message, doc.span(item.node),
                                          guess_notes(doc, sink=sink), self._fixes(doc, sink, item.node)))
        return out + list(self._integer_weights(doc, analysis))

    def _integer_weights(self, doc, analysis):
        """`self.add_weight(..., dtype="int32")` left trainable in a Keras layer or model: Keras
        trains it, no loss can. (A metric's or an optimizer's `add_variable` is never trainable.)"""
        layers = {id(cls.node) for cls in analysis.classes if cls.is_keras}
        for call in doc.nodes_of(ast.Call):
            if id(_enclosing_class(doc, call)) not in layers:
                continue
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr in ("add_weight", "add_variable")
                    and isinstance(func.value, ast.Name) and func.value.id == "self"):
                continue
            dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
            trainable = next((k.value for k in call.keywords if k.arg == "trainable"), None)
            if dtype is None or not is_integer_dtype(dtype, doc.imports):
                continue
            if isinstance(trainable, ast.Constant) and trainable.value is False:
                continue  # a counter or a step: not trained
            message = (f"`{doc.short(call)}` makes a trainable integer weight: integer variables never get a "
                       f"gradient, so training it fails (\"No gradients provided\") or leaves it None; make it "
                       f"float, or pass `trainable=False` for a counter")
            yield Diagnostic(self.code, self.severity, message, doc.span(call), ())

    def _fixes(self, doc, sink, node):
        # Only what the engine's `tape.watch` tracks (a name, `self.x`): another attribute would be
        # reported again after the fix, and --fix would add the line round after round.
        watchable = isinstance(node, ast.Name) or (
            isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self")
        if sink.tape is None or not watchable or _rebound_after_block(doc, sink, doc.text(node)):
            return ()
        body = sink.tape.with_node.body
        name = doc.text(node)
        anchor = body[0]
        for stmt in body:  # watch after the statement that defines the source, if it is in the block
            if isinstance(stmt, ast.Assign) and any(doc.text(t) == name for t in stmt.targets):
                anchor = None
                line = (stmt.end_lineno or stmt.lineno) + 1
                indent = doc.line_indent(stmt.lineno)
                break
        if anchor is not None:
            line, indent = anchor.lineno, doc.line_indent(anchor.lineno)
        text = f"{indent}{sink.tape.name}.watch({name}){doc.newline}"
        return (make_fix(f"Add `{sink.tape.name}.watch({name})`", Safety.SAFE, [Edit(Span(line, 0, line, 0), text)],
                         preferred=True),)


def _rebound_after_block(doc, sink, name: str) -> bool:
    """`name` is assigned between the end of the `with` block and the gradient call: a watch inside
    the block would watch another value (or a name not bound yet), and the finding would stay."""
    after, before = sink.tape.with_node.end_lineno or 0, sink.node.lineno
    targets = [t for n in doc.nodes_of(ast.Assign) for t in n.targets]
    targets += [n.target for n in doc.nodes_of(ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)]
    return any(after < t.lineno <= before and any(doc.text(part) == name for part in ast.walk(t))
               for t in targets)


def _may_be_watched(sink) -> bool:
    """The tape watched something the model cannot follow by name (a loop variable, `inputs[0]`,
    whatever a function nobody can see was handed the tape for), or is itself nobody knows which
    tape (taken for one by its name): that may well be this source."""
    return sink.tape is None or sink.tape.watches_untracked


def _enclosing_class(doc, node: ast.AST) -> ast.ClassDef | None:
    return next((parent for _, parent in doc.ancestors(node) if isinstance(parent, ast.ClassDef)), None)
