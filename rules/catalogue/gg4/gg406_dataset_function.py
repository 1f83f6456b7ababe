"""GG406: a tf.data function (`Dataset.reduce`, `map`, `scan`, ...) computes what the loss uses."""
from __future__ import annotations

from ..rule import BreakRule

# The Dataset methods whose function TensorFlow traces into the dataset's own graph.
DATASET_FUNCTIONS = {"reduce", "map", "scan", "filter", "flat_map", "interleave", "window"}


class DatasetFunction(BreakRule):
    code = "GG406"
    name = "dataset-function-not-recorded"
    summary = "a `tf.data` function (`ds.reduce`, `ds.map`) computes the loss; the tape does not record it"
    verb = "is computed by"
    what = "A value that depends on trainable variables is computed inside the function given to a " \
           "`tf.data.Dataset` method — `ds.reduce(init, fn)`, `ds.map(fn)`, `ds.scan(...)` — or in a " \
           "`for x in ds:` loop inside a traced function (`@tf.function`, or called through " \
           "`tf.function(f)`), and the loss is built from its result."
    why = "`tf.data` traces the function into the dataset's own graph and runs it as a dataset op: the " \
          "`GradientTape` around the call records the op's result, not the variable reads inside the " \
          "function, so the gradient for those variables is `None`. In a traced function AutoGraph turns " \
          "`for x in ds:` into exactly such a `ds.reduce`: the loop body runs in the dataset's graph, " \
          "and even a tape opened inside the function, around the loop, records nothing of it. " \
          "Iterating the dataset in Python (`for y in ds:` in eager mode), or `for y in iter(ds):` " \
          "inside a `tf.function` (a `while` loop AutoGraph keeps in the function's graph), and " \
          "computing the loss in the loop body keeps the gradient."
    error = "`None` gradients, or `ValueError: No gradients provided for any variable`."
    fix_safety = "No automatic fix: compute the loss in Python over the dataset's elements (eagerly, " \
                 "or over `iter(ds)` in a `tf.function`), or over a tensor of them, inside the tape."
    fixed_outcome = "nofix"
    bad = '''\
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(tf.range(10, dtype=tf.float32))
u = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = ds.reduce(tf.constant(0.0), lambda total, y: total + (y - u) ** 2)
grads = tape.gradient(loss, [u])
'''
    good = '''\
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(tf.range(10, dtype=tf.float32))
u = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = tf.add_n([(y - u) ** 2 for y in ds])
grads = tape.gradient(loss, [u])
'''

    def match(self, site):
        receiver = site.receiver
        if site.method in DATASET_FUNCTIONS and receiver is not None and receiver.role == "dataset" \
                and any(v.live for v in site.args):
            return f"the function of `.{site.method}()`, traced into the dataset's graph"
        return None

    def value_node(self, site):
        return site.node

    def cut_inputs(self, site):
        return list(site.args) + list(site.keywords.values())
