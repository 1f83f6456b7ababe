"""GG307: a non-persistent `GradientTape` asked for gradients more than once."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Edit, Related, Safety
from ..edits import make_fix
from ..rule import CheckRule


class TapeReused(CheckRule):
    code = "GG307"
    name = "non-persistent-tape-reused"
    summary = "a non-persistent tape is asked for gradients twice; the second call raises"
    bad_outcome = "raises RuntimeError"
    what = "Two `tape.gradient` (or `jacobian`) calls use the same tape created without `persistent=True`, " \
           "or one call runs in a loop after the tape's block. Two separate tapes (as in a GAN) are fine."
    why = "A non-persistent tape releases its resources after the first `gradient` call. The second call " \
          "raises instead of returning gradients."
    error = "`RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients " \
            "(or jacobians)`."
    fix_safety = "Adding `persistent=True` is safe: the tape keeps its record until it is garbage-collected " \
                 "(delete it with `del tape` when done to free memory)."
    bad = '''\
import numpy as np
import tensorflow as tf

encoder = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu")])
decoder = tf.keras.Sequential([tf.keras.layers.Dense(3)])
x = np.random.rand(8, 3).astype("float32")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(x - decoder(encoder(x))))
encoder_grads = tape.gradient(loss, encoder.trainable_variables)
decoder_grads = tape.gradient(loss, decoder.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

encoder = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu")])
decoder = tf.keras.Sequential([tf.keras.layers.Dense(3)])
x = np.random.rand(8, 3).astype("float32")

with tf.GradientTape(persistent=True) as tape:
    loss = tf.reduce_mean(tf.square(x - decoder(encoder(x))))
encoder_grads = tape.gradient(loss, encoder.trainable_variables)
decoder_grads = tape.gradient(loss, decoder.trainable_variables)
del tape
'''

    def check(self, analysis):
        doc = analysis.doc
        parents = doc.parents
        out = []
        for tape in analysis.tapes:
            if tape.persistent:
                continue
            calls = sorted(tape.gradient_calls, key=lambda c: (c.lineno, c.col_offset))
            second = _second_use(calls, tape.with_node, parents)
            if second is None:
                continue
            message = (f"`{tape.name}` is not persistent and was already used for gradients: this call raises "
                       f"RuntimeError")
            related = tuple(Related(doc.span(c), "first gradient call") for c in calls[:1] if c is not second)
            out.append(Diagnostic(self.code, self.severity, message, doc.span(second), related,
                                  self._fixes(doc, tape)))
        return out

    def _fixes(self, doc, tape):
        call = tape.call_node
        if call is None or call.args or call.keywords and any(k.arg == "persistent" for k in call.keywords):
            return ()
        end = doc.span(call)
        separator = ", " if call.keywords else ""
        insert = Edit(type(end)(end.end_line, end.end_col - 1, end.end_line, end.end_col - 1),
                      f"{separator}persistent=True")
        return (make_fix("Make the tape persistent", Safety.SAFE, [insert], preferred=True),)


def _second_use(calls, with_node, parents):
    for index, call in enumerate(calls):
        for earlier in calls[:index]:
            if not _exclusive(earlier, call, parents):
                return call
        if _in_loop_outside(call, with_node, parents):
            return call
    return None


def _ancestors(node, parents):
    while node in parents:
        node = parents[node]
        yield node


def _exclusive(a, b, parents) -> bool:
    """True when `a` and `b` sit in different branches of one `if`."""
    for ancestor in _ancestors(a, parents):
        if isinstance(ancestor, ast.If) and any(n is ancestor for n in _ancestors(b, parents)):
            in_body = lambda n: any(any(x is s for x in _ancestors(n, parents)) or n is s for s in ancestor.body)
            return in_body(a) != in_body(b)
    return False


def _in_loop_outside(call, with_node, parents) -> bool:
    """A loop that contains the gradient call but not the `with` block repeats the call on one tape."""
    for ancestor in _ancestors(call, parents):
        if ancestor is with_node:
            return False
        if isinstance(ancestor, (ast.For, ast.While)):
            return not any(n is ancestor for n in _ancestors(with_node, parents))
    return False
