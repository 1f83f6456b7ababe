"""GG302: gradients asked for variables the loss never touches."""
from __future__ import annotations

import ast
import re

from ...diagnostics import Diagnostic, Related, Safety, Severity
from ..edits import make_fix, replace
from ...model.status import Verdict, dead_severity, sink_status, tape_records
from ...model.facts import SinkKind
from ...model.values import OriginKind
from ..phrases import guess_notes
from ..rule import CheckRule

_DOTTED_NAME = re.compile(r"(?!\d)\w+(?:\.(?!\d)\w+)*")  # `model`, `self.q_net`, `агент.сеть`


class UntouchedSources(CheckRule):
    code = "GG302"
    owns = (Verdict.UNTOUCHED,)
    name = "gradient-of-untouched-variables"
    summary = "`tape.gradient` is asked for variables the loss does not depend on (e.g. the target network's)"
    what = "The variables passed to `tape.gradient` (or `minimize`) belong to a model or variable that the " \
           "loss never uses, typically `target_model.trainable_variables` where the loss is computed " \
           "with `model`. It also reports the parts of one model a loss cannot reach: the head of a " \
           "two-output functional model the loss does not use (`keras.Model(x, [action, critic])` " \
           "trained on `action` alone), the sub-layer of a subclassed model that reaches only the outputs " \
           "of its `call` the loss does not use (a VAE returning `(decoded, z_mean, z_log_var)` trained " \
           "on the KL term alone: the decoder's variables) or reaches no output at all (a BERT pooler that " \
           "the heads never use, also when the model is trained with `fit` or called inside a functional " \
           "model), the BatchNormalization moving statistics listed by " \
           "`model.variables` / `model.weights` (a warning: the other variables still train), and any " \
           "source of a target that is a constant (`class_channel = tf.constant([4.4])` in a Grad-CAM " \
           "step): a constant depends on nothing, so every gradient of it is None."
    why = "The gradient of a loss with respect to a variable it does not depend on is `None`. With a " \
          "DQN target network this is the classic mix-up: the online network is the one trained, the " \
          "target network is only copied into."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients for some variables."
    fix_safety = "When the loss depends on exactly one other model, the fix asks for that model's " \
                 "`trainable_variables`; unsafe because it changes which network is trained."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
target_model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
actions = np.random.randint(0, 2, size=8)
target_model(next_states)

target = rewards + 0.99 * tf.reduce_max(target_model(next_states), axis=1)
with tf.GradientTape() as tape:
    q = tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, target_model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
target_model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
actions = np.random.randint(0, 2, size=8)

target = rewards + 0.99 * tf.reduce_max(target_model(next_states), axis=1)
with tf.GradientTape() as tape:
    q = tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def check(self, analysis):
        out = []
        doc = analysis.doc
        for sink in analysis.sinks:
            if sink.sources is None and sink.source_node is not None and _constant_target(doc, sink, sink.source_node):
                out.append(self._constant(doc, sink, sink.source_node))  # (sources the model cannot itemise)
            if sink.sources is None or sink.kind not in (SinkKind.GRADIENT, SinkKind.MINIMIZE, SinkKind.FIT):
                continue
            status = sink_status(analysis, sink)
            severity = dead_severity(status)
            for item in sink.sources:
                keys = {o.key for o in item.origins}
                # A model's layers the loss may use apart (the heads of a two-output model).
                parts = [o for o in status if o.part_of in keys and status[o].verdict in self.owns]
                unused = [o for o in sorted(item.origins, key=lambda o: o.name) if status[o].verdict in self.owns]
                if unused:
                    out.append(self._unused(doc, sink, item, unused, status, severity))
                elif _constant_target(doc, sink, item.node):
                    out.append(self._constant(doc, sink, item.node))
                for origin in sorted(parts, key=lambda o: o.key):
                    out.append(self._unused_part(doc, sink, item, origin, severity))
            out.extend(self._non_trainable(doc, sink, status))
        return out

    def _constant(self, doc, sink, source: ast.AST) -> Diagnostic:
        message = (f"`{doc.short(sink.target_node)}`, the target of {sink.label}, is a constant that depends on "
                   f"nothing, so the gradient for `{doc.short(source)}` is None")
        return Diagnostic(self.code, Severity.ERROR, message, doc.span(source),
                          (Related(doc.span(sink.target_node), "the constant target"),), ())

    def _unused_part(self, doc, sink, item, origin, severity) -> Diagnostic:
        where = f" (line {origin.span.line})" if origin.span else ""
        layer = origin.part.removeprefix("in ")
        message = (f"the loss given to {sink.label} never uses the layer {layer}{where} of "
                   f"`{origin.name}`, so the gradients for its variables in `{doc.short(item.node)}` are None")
        return Diagnostic(self.code, severity, message, doc.span(item.node),
                          (Related(doc.span(sink.target_node), "the loss"),), ())

    def _unused(self, doc, sink, item, unused, status, severity) -> Diagnostic:
        """One diagnostic for a source: every variable of it the loss never uses, named."""
        if len(unused) == 1:
            asked = f"`{unused[0].variables_text()}` in `{doc.short(item.node)}`" if item.element \
                else f"`{doc.short(item.node)}`"
            message = (f"the loss given to {sink.label} never uses {_named(unused[0], sink)}, so the gradient for "
                       f"{asked} is None")
        else:  # `params = [loc, scale_1, scale_2]`: say each one, not the first alone
            names = ", ".join(_named(o, sink) for o in unused[:-1]) + f" or {_named(unused[-1], sink)}"
            message = (f"the loss given to {sink.label} never uses {names}, so their gradients in "
                       f"`{doc.short(item.node)}` are None")
        fixes = self._fixes(doc, sink, item, status)
        related = (Related(doc.span(sink.target_node), "the loss"), *guess_notes(doc, origins=unused, sink=sink))
        return Diagnostic(self.code, severity, message, doc.span(item.node), related, fixes)

    def _non_trainable(self, doc, sink, status):
        """`tape.gradient(loss, model.variables)` on a model with BatchNormalization: the list holds
        its moving statistics, which no loss reaches; their gradients are None."""
        for item in sink.sources:
            effect = item.value.effect
            if effect is None or not effect.stateful or not item.origins:
                continue
            if any(status[o].verdict is not Verdict.LIVE for o in item.origins):
                continue  # the model itself is the problem: said above, or by another rule
            message = (f"`{doc.short(item.node)}` holds non-trainable variables (the moving statistics of "
                       f"{_stateful_layer(effect)}), which no loss reaches: {sink.label} returns None for them")
            fixes = ()
            if isinstance(item.node, ast.Attribute) and item.node.attr in ("variables", "weights"):
                text = f"{doc.text(item.node.value)}.trainable_variables"
                edits = [replace(doc, node, text) for node in (item.node, *_zipped_with_gradients(doc, sink, item.node))]
                fixes = (make_fix(f"Differentiate with respect to `{text}`", Safety.UNSAFE, edits, preferred=True),)
            yield Diagnostic(self.code, Severity.WARNING, message, doc.span(item.node),
                             (Related(doc.span(sink.target_node), "the loss"),), fixes)

    def _fixes(self, doc, sink, item, status):
        # `g.origin` can be None: the engine makes a model output with no origin when it calls
        # something that only looks like a model (`model.numpy()(x)`). Found by fuzzing.
        used = {g.origin for g in sink.target.live
                if tape_records(sink, g) and g.origin is not None and g.origin.kind is OriginKind.MODEL}
        used -= set(status)
        if len(used) != 1 or len(item.origins) != 1 or item.element:  # (not the whole list `params`)
            return ()
        model = used.pop()
        if not _DOTTED_NAME.fullmatch(model.name):
            return ()  # a model named by an expression (`{...}(x)`, `nets[i](x)`): no safe spelling
        text = f"{model.name}.trainable_variables"
        edits = [replace(doc, node, text) for node in (item.node, *_zipped_with_gradients(doc, sink, item.node))]
        return (make_fix(f"Differentiate with respect to `{text}`", Safety.UNSAFE, edits, preferred=True),)


def _constant_target(doc, sink, source: ast.AST) -> bool:
    """`tape.gradient(class_channel, conv_output)` of a `tf.constant([4.4])`: None whatever the
    source (but the target itself, and zeros when `unconnected_gradients=ZERO` asks for them)."""
    target = sink.target
    return (sink.kind is SinkKind.GRADIENT and target.role == "constant" and not target.live and not target.cut
            and doc.text(source) != doc.text(sink.target_node))


def _zipped_with_gradients(doc, sink, sources: ast.AST) -> list[ast.AST]:
    """The same sources zipped with this sink's gradients for `apply_gradients` in its function
    (`grads = tape.gradient(...)`, then `optimizer.apply_gradients(zip(grads, model.variables))`):
    changed with them, or the pairs no longer match."""
    assigned = doc.parents.get(sink.node)
    if not (isinstance(assigned, ast.Assign) and len(assigned.targets) == 1 and isinstance(assigned.targets[0], ast.Name)):
        return []
    text, grads, found = doc.text(sources), assigned.targets[0].id, []
    for call in doc.nodes_of(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "apply_gradients" and call.args
                and doc.scope_of(call) is sink.function):
            continue
        pairs = call.args[0]
        if isinstance(pairs, ast.Call) and isinstance(pairs.func, ast.Name) and pairs.func.id == "zip" \
                and len(pairs.args) == 2 and doc.text(pairs.args[0]) == grads and doc.text(pairs.args[1]) == text:
            found.append(pairs.args[1])
    return found


def _stateful_layer(effect) -> str:
    names = sorted({e.name for e in (effect.layers or ()) if e.stateful and e.name} or {effect.name or "a layer"})
    return " and ".join(f"`{n}`" if n != "a layer" else n for n in names)


def _named(origin, sink) -> str:
    """`w`, or, when the loss uses another `w` (the name bound again to a new variable since), the
    one of its binding line: "never uses `w`" would read as false."""
    if origin.span is not None and any(g.origin is not None and g.origin.name == origin.name
                                       and g.origin.key != origin.key for g in sink.target.live):
        return f"the `{origin.name}` bound on line {origin.span.line}"
    return f"`{origin.name}`"
