"""GG403: a cast to an integer or boolean dtype on the only path to the loss."""
from __future__ import annotations

import ast

from ..rule import BreakRule

_CASTS = {"tensorflow.cast", "tensorflow.dtypes.cast", "tensorflow.saturate_cast",
          "tensorflow.dtypes.saturate_cast", "keras.ops.cast"}
_DISCRETE = ("int", "uint", "bool")


def _dtype_name(doc, node: ast.AST | None, constant: object = None) -> str | None:
    """The dtype as written (`tf.int32`, `"int32"`, `int`), or as the constant the argument holds
    (`INDEX_DTYPE = tf.int32` at the top of the file, `DTYPES["index"]`)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    qualname = doc.imports.qualname(node)
    if qualname:
        return qualname.rsplit(".", 1)[-1]
    if isinstance(node, ast.Name) and node.id in ("int", "bool"):
        return node.id
    if isinstance(constant, str):
        return constant.rsplit(".", 1)[-1]
    return None


class IntegerCast(BreakRule):
    code = "GG403"
    name = "integer-cast-without-gradient"
    summary = "casting to an integer or bool dtype drops the gradient"
    verb = "goes through"
    what = "A gradient-carrying value is cast to an integer or boolean dtype (`tf.cast(x, tf.int32)`, " \
           "`x.astype(int)`) and the loss depends on the variables only through the cast. Keras layers " \
           "that read their input as integers do the same: `Embedding`, `CategoryEncoding`, " \
           "`IntegerLookup`, `Hashing`, `Discretization` (a generator's softmax fed to a discriminator " \
           "that starts with an `Embedding` gives the generator no gradient)."
    why = "Gradients exist only for floating-point (and complex) tensors. TensorFlow's `Cast` gradient " \
          "returns `None` when either side is an integer or boolean dtype."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: keep the value floating-point (or use a straight-through estimator)."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
counts = np.random.randint(0, 5, size=(8, 1)).astype("float32")

with tf.GradientTape() as tape:
    predicted_counts = tf.cast(tf.cast(model(x) * 5.0, tf.int32), tf.float32)
    loss = tf.reduce_mean(tf.square(counts - predicted_counts))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
labels = tf.cast(np.random.randint(0, 5, size=(8, 1)), tf.float32)  # casting labels is fine

with tf.GradientTape() as tape:
    predicted_counts = tf.cast(model(x), tf.float32) * 5.0
    loss = tf.reduce_mean(tf.square(labels - predicted_counts))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def match(self, site):
        doc = site.doc
        if site.qualname in _CASTS:
            dtype = _dtype_name(doc, site.arg_node(1, "dtype"), site.constant(1, "dtype"))
        elif site.method == "astype" and site.receiver is not None:
            dtype = _dtype_name(doc, site.arg_node(0, "dtype"), site.constant(0, "dtype"))
        else:
            return None
        if dtype and dtype.startswith(_DISCRETE):
            return f"a cast to `{dtype}`, which has no gradient"
        return None

    def cut_inputs(self, site):
        return [site.receiver] if site.method == "astype" else site.args[:1]
