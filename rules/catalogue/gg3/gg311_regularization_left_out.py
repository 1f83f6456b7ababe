"""GG311: a hand-written loss that leaves out the regularization losses the model declares."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Edit, Related, Safety, Severity, Span, display_path
from ...model.facts import SinkKind
from ...model.status import Verdict, sink_status
from ...source.questions import ModuleQuestion
from ..edits import make_fix, tensorflow_alias
from ..rule import CheckRule

# What adds the regularization terms to a loss, written anywhere in the file: `model.losses`,
# Keras's own `self.compute_loss` (which adds `self.losses`), or TF 2's `compiled_loss(...,
# regularization_losses=...)`. Any of them and the file is taken to add them where it should.
# Attributes only: a function of the project's own named `compute_loss` (a YOLO loss) adds nothing.
_ADDERS = {"losses", "compute_loss", "compiled_loss", "get_losses_for", "regularization_losses"}


class RegularizationLeftOut(CheckRule):
    code = "GG311"
    name = "regularization-left-out"
    summary = "the model declares regularizers (`kernel_regularizer=`, `add_loss`) but the hand-written loss never adds `model.losses`"
    severity = Severity.WARNING
    bad_outcome = "ok"
    fixed_outcome = "differs"
    what = "A model whose layers declare regularization (`kernel_regularizer=`, `bias_regularizer=`, " \
           "`activity_regularizer=`, `add_weight(regularizer=...)`, `self.add_loss(...)`) is trained by a " \
           "hand-written loss under a `GradientTape` (a custom loop or a custom `train_step`), and nothing " \
           "in the file reads `model.losses` or calls `compute_loss`."
    why = "Keras collects the regularization terms in `model.losses`. `fit` with the built-in " \
          "`train_step`, and `self.compute_loss` in a custom one, add them to the loss; a loss computed by " \
          "hand does not, so the penalty never reaches the gradients."
    error = "No error: training runs, silently without the regularization the model declares (the weights " \
            "are not decayed, the activity is not penalised)."
    fix_safety = "The fix adds `loss = loss + tf.add_n(model.losses)` inside the tape, after the loss is " \
                 "computed. Unsafe: it changes the gradients (which is the point), and a model that also " \
                 "adds an L2 term by hand would count it twice."
    bad = '''\
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(8, activation="relu", kernel_regularizer=keras.regularizers.l2(1e-2)),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(16, 4).astype("float32")
y = np.random.rand(16, 1).astype("float32")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x)))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''
    good = '''\
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(8, activation="relu", kernel_regularizer=keras.regularizers.l2(1e-2)),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(16, 4).astype("float32")
y = np.random.rand(16, 1).astype("float32")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x))) + tf.add_n(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
'''

    def check(self, analysis):
        doc = analysis.doc
        if not analysis.regularized_models or doc.ask(_adds_regularization):
            return []
        out = []
        zeros = {id(sink) for sink in analysis.zero_sinks}
        for sink in analysis.sinks + analysis.zero_sinks:  # zeros for None change nothing here
            if sink.kind is not SinkKind.GRADIENT or sink.tape is None or sink.tape.with_node is None:
                continue
            # Where a cut is reported (not under ZERO, which hides it), that is the finding to fix first.
            asked = (Verdict.LIVE,) if id(sink) not in zeros else tuple(v for v in Verdict if v is not Verdict.UNTOUCHED)
            trained = [o for o, s in sink_status(analysis, sink).items()
                       if s.verdict in asked and o.key in analysis.regularized_models]
            if trained:
                out.append(self._finding(doc, analysis, sink, trained[0]))
        return out

    def _finding(self, doc, analysis, sink, model) -> Diagnostic:
        where, path = analysis.regularized_models[model.key]
        declared = f"`{doc.short_span(where)}`, line {where.line}" if path is None else \
            f"line {where.line} of {display_path(path, doc.path)}"
        message = (f"`{model.name}` declares regularization ({declared}), which Keras keeps in "
                   f"`{model.name}.losses`, but the loss {sink.label} differentiates never adds them: training "
                   f"ignores the regularizer")
        related = (Related(where, "the regularizer", path),)
        fix = self._fix(doc, sink, model)
        return Diagnostic(self.code, self.severity, message, doc.span(sink.target_node), related,
                          (fix,) if fix is not None else ())

    def _fix(self, doc, sink, model):
        """`loss = loss + tf.add_n(model.losses)` after the loss's last assignment in the tape's
        block (the sum must be recorded by the tape); only for a model named as written."""
        target = sink.target_node
        if not isinstance(target, ast.Name) or not model.name.replace(".", "_").isidentifier():
            return None
        assigned = [stmt for stmt in sink.tape.with_node.body if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                    and any(isinstance(t, ast.Name) and t.id == target.id for t in _targets(stmt))]
        if not assigned:
            return None
        last = assigned[-1]
        alias, imports = tensorflow_alias(doc)
        line = (last.end_lineno or last.lineno) + 1
        text = f"{doc.line_indent(last.lineno)}{target.id} = {target.id} + {alias}.add_n({model.name}.losses){doc.newline}"
        return make_fix(f"Add `{model.name}.losses` to the loss inside the tape", Safety.UNSAFE,
                        [Edit(Span(line, 0, line, 0), text), *imports], preferred=True)


def _targets(stmt: ast.stmt) -> list[ast.AST]:
    return list(stmt.targets) if isinstance(stmt, ast.Assign) else [stmt.target]


def _reads_penalties(nodes, imports) -> bool:
    return any((isinstance(node, ast.Attribute) and node.attr in _ADDERS
                and imports.qualname(node) is None)  # not the module `keras.losses`
               or (isinstance(node, ast.Name) and node.id == "regularization_losses")  # a keyword's value, named
               for node in nodes)


# The file reads `.losses` or calls what adds them (`compute_loss`), anywhere: it adds them
# somewhere, which may be where this loss needs them (a helper). A question about the whole
# module: the helper may be in another part than the loss (source/components.py).
_adds_regularization = ModuleQuestion("adds_regularization", _reads_penalties, lambda facts, imports: any(facts),
                                      uses_imports=True)

