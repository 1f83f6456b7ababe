"""GG301: the forward pass or the loss is computed outside the `with tf.GradientTape()` block."""
from __future__ import annotations

from ...diagnostics import Diagnostic, Related
from ...model.status import Verdict, dead_severity, sink_status
from ..phrases import guess_notes, side_path_consequence, sink_phrase
from ...model.facts import SinkKind
from ..rule import CheckRule


class OutsideTape(CheckRule):
    code = "GG301"
    name = "computed-outside-tape"
    summary = "the model call or the loss runs outside the `with tf.GradientTape()` block"
    fixed_outcome = "nofix"
    owns = (Verdict.UNRECORDED,)
    what = "`tape.gradient(loss, ...)` differentiates a value whose computation from the model's " \
           "variables was not (entirely) recorded by that tape: the model was called before the `with` " \
           "block (or by a caller that hands the prediction to the function opening the tape), or the " \
           "loss was computed after it ended. The same holds for the tape `optimizer.minimize(loss_fn)` " \
           "opens around `loss_fn`: a function that returns a loss (or uses an output) computed before " \
           "the call gives it nothing to differentiate. A break on the same model's other paths is " \
           "reported once this is fixed: the path the tape never saw comes first."
    why = "A tape records only the operations that run while it is active. Operations before the `with` " \
          "block or after it are invisible to it, so it sees no connection from the variables to the loss."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: move the forward pass and the loss into the `with` block."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

predictions = model(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - predictions))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    predictions = model(x)
    loss = tf.reduce_mean(tf.square(y - predictions))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def check(self, analysis):
        out = []
        for sink in analysis.sinks:
            if sink.kind not in (SinkKind.GRADIENT, SinkKind.MINIMIZE) or sink.tape is None:
                continue
            status = sink_status(analysis, sink)  # a variable rebound to a tensor is GG304's
            severity = dead_severity(status)
            for origin, paths in status.items():
                if paths.verdict not in self.owns:
                    continue
                grad = min(paths.untaped, key=lambda g: g.dropped_at or g.site)
                where = grad.dropped_at or grad.site
                consequence = side_path_consequence(paths.live, origin) if paths.live else \
                    sink_phrase(sink, [origin], severity.value == "warning")  # (a penalty added in the tape: some live)
                message = _unrecorded(analysis.doc, sink, where) + consequence
                related = _tape_notes(analysis.doc, sink) + guess_notes(analysis.doc, origins=[origin])
                out.append(Diagnostic(self.code, severity, message, where, related))
        return out


def _unrecorded(doc, sink, where) -> str:
    text = doc.short_span(where)
    if sink.tape.with_node is None:  # `optimizer.minimize(loss_fn)`: its own tape, around `loss_fn` only
        return (f"`{text}` runs before `minimize` calls `{doc.short(sink.target_node)}`, so the tape "
                f"`minimize` opens never records it; ")
    return f"`{text}` runs outside the `with` block of `{sink.tape.name}`, so the tape never records it; "


def _tape_notes(doc, sink) -> tuple[Related, ...]:
    if sink.tape.with_node is None:
        return (Related(doc.span(sink.node), f"`minimize` records only what `{doc.short(sink.target_node)}` "
                                             f"computes when it calls it"),)
    notes = (Related(doc.span(sink.tape.with_node.items[0].context_expr),
                     f"`{sink.tape.name}` records only inside this block"),
             Related(doc.span(sink.node), "the gradient is asked for here"))
    if sink.call_site is not None:  # the value came in as an argument of this call
        notes += (Related(doc.span(sink.call_site), f"`{doc.short(sink.call_site)}` passes it to the tape's "
                                                     f"function here"),)
    return notes
