"""GG202: a bootstrapped (TD) target computed with the trained network, without `tf.stop_gradient`."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Related, Safety, Severity
from ..edits import make_fix, wrap_call
from ...model.status import sink_status
from ...model.facts import SinkKind
from ..phrases import guess_notes
from ..rule import CheckRule


class UnstoppedBootstrapTarget(CheckRule):
    code = "GG202"
    name = "unstopped-bootstrap-target"
    summary = "a TD target uses the trained network inside the tape without `tf.stop_gradient`"
    severity = Severity.WARNING
    bad_outcome = "ok"
    fixed_outcome = "differs"
    what = "Inside the tape, the loss compares the trained network's prediction with a target computed " \
           "by the *same* network on next states (`r + gamma * max Q(s')`), and the target is not wrapped " \
           "in `tf.stop_gradient`. A separate target network, a target computed before the tape, or one " \
           "wrapped in `tf.stop_gradient` is fine. The same holds for an actor-critic's advantage: " \
           "`-log_prob * (ret - value)` with `value` the critic's prediction in the same tape trains the " \
           "critic through the policy's loss too; the advantage is a constant to the actor."
    why = "Nothing fails: the gradient also flows into the target, so each update moves the target " \
          "towards the prediction as much as the prediction towards the target (a residual-gradient " \
          "method). Q-learning and TD(0) assume a fixed target, and training is slower or diverges."
    error = "No error: training runs, silently wrong. The gradients differ from those of the intended update."
    fix_safety = "The fix wraps the network call on the next states in `tf.stop_gradient`; unsafe " \
                 "because it changes the update (which is the point)."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
dones = np.zeros(8, dtype="float32")
actions = np.random.randint(0, 2, size=8)
gamma = 0.99

with tf.GradientTape() as tape:
    target = rewards + gamma * tf.reduce_max(model(next_states), axis=1) * (1.0 - dones)
    q = tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
dones = np.zeros(8, dtype="float32")
actions = np.random.randint(0, 2, size=8)
gamma = 0.99

with tf.GradientTape() as tape:
    next_q = tf.stop_gradient(model(next_states))
    target = rewards + gamma * tf.reduce_max(next_q, axis=1) * (1.0 - dones)
    q = tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def check(self, analysis):
        doc = analysis.doc
        calls = {doc.span(n): n for n in doc.nodes_of(ast.Call)}
        out = []
        for sink in analysis.sinks:
            if sink.kind is not SinkKind.GRADIENT or _stops_gradients_itself(sink):
                continue
            for origin, status in sink_status(analysis, sink).items():
                # (a path through a function nobody can see is no proof that the target trains)
                targets = {g.site for g in status.live if g.bootstrap and not g.opaque}
                if not targets or not _also_predicts(status):
                    continue
                for site in sorted(targets):
                    call = calls.get(site)
                    message = (f"the target uses `{origin.name}` on next states inside the tape without "
                               f"`tf.stop_gradient`: {sink.named} also trains the target")
                    fixes = ()
                    if call is not None:
                        _, edits = wrap_call(doc, call, "stop_gradient")
                        fixes = (make_fix("Wrap the target's network call in `tf.stop_gradient`",
                                          Safety.UNSAFE, edits, preferred=True),)
                    related = (Related(doc.span(sink.node), "the loss reaches the tape here"),
                               *guess_notes(doc, origins=[origin], sink=sink, td_targets=[site]))
                    out.append(Diagnostic(self.code, self.severity, message, site, related, fixes))
        out.extend(self._advantages(analysis))
        return out

    def _advantages(self, analysis):
        """`-log_prob * (ret - value)` with `value` the trained critic's prediction, not stopped:
        the policy term trains the critic too (A2C's advantage is a constant to the actor)."""
        doc = analysis.doc
        if not analysis.unstopped_advantages:
            return
        trained = {o for sink in analysis.sinks if sink.kind is SinkKind.GRADIENT and not _stops_gradients_itself(sink)
                   for o, s in sink_status(analysis, sink).items() if s.live}
        for prediction, advantage in analysis.unstopped_advantages:
            models = sorted({g.origin.name for g in advantage.live if g.origin in trained and not g.opaque})
            if not models:
                continue
            text = doc.short(prediction)
            message = (f"the advantage subtracts `{text}` ({', '.join(f'`{m}`' for m in models)}) inside the tape "
                       f"without `tf.stop_gradient`: the policy's loss `log_prob * advantage` also trains the critic")
            _, edits = wrap_call(doc, prediction, "stop_gradient")
            fix = make_fix(f"Wrap `{text}` in `tf.stop_gradient`", Safety.UNSAFE, edits, preferred=True)
            yield Diagnostic(self.code, self.severity, message, doc.span(prediction), (), (fix,))


def _also_predicts(status) -> bool:
    """The network also makes the prediction the target is compared with: live, or cut by a break
    another rule reports. Whether that break is fixed, selected or suppressed, the target is this
    rule's own finding (fixing the break alone would leave a target that trains too)."""
    return any(not g.bootstrap and not g.opaque for g in status.live) or \
        any(not c.grad.bootstrap and not c.brk.deliberate for c in status.cuts)


def _stops_gradients_itself(sink) -> bool:
    """The loss already holds something constant with `tf.stop_gradient`: whoever wrote it chose
    which side of the TD error trains (residual-gradient methods train through the target on
    purpose and stop the prediction instead). A straight-through estimator's `tf.stop_gradient`
    holds nothing constant: the value it stops also reaches the loss live, beside it."""
    live = {(g.origin, g.site) for g in sink.target.live}
    return any(cut.brk.deliberate and (cut.grad.origin, cut.grad.site) not in live for cut in sink.target.cut)
