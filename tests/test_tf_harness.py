"""The TensorFlow harness must be able to fail: each check here has a program that trips it."""
from __future__ import annotations

import json

# The harness imports TensorFlow: every test takes it as the `tf_harness` fixture (which marks it
# `tf`), so that collecting this module, as the fast loop does, imports no TensorFlow.

CORRECT = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(8, 4).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

NUMPY_IN_LOSS = CORRECT.replace(
    "loss = tf.reduce_mean(tf.square(model(x, training=True) - y))",
    "loss = tf.reduce_mean(tf.square(model(x, training=True).numpy() - y))",
)


def test_correct_program_is_ok(tf_harness):
    outcome = tf_harness.run_program(CORRECT, "ok.py")
    assert outcome.ok, outcome.describe()
    assert not outcome.no_gradient
    assert tf_harness.matches(outcome, "ok") and not tf_harness.matches(outcome, "none")
    assert len(outcome.gradients) == 1
    assert [g.shape for g in outcome.gradients[0]] == [(4, 1), (1,)]


def test_numpy_in_loss_gives_no_gradient(tf_harness):
    outcome = tf_harness.run_program(NUMPY_IN_LOSS, "bad.py")
    assert outcome.no_gradient, outcome.describe()
    assert not outcome.ok
    assert outcome.gradients == [[None, None]]
    assert outcome.raised("ValueError")
    assert tf_harness.matches(outcome, "none") and not tf_harness.matches(outcome, "ok")


def test_raising_program_is_reported_and_tape_restored(tf_harness):
    import tensorflow as tf

    before = (tf.GradientTape.gradient, tf.GradientTape.jacobian)
    source = CORRECT.replace("grads = tape.gradient(", "grads = tape.gradient(loss, model.trainable_variables)\ngrads = tape.gradient(")
    outcome = tf_harness.run_program(source, "twice.py")
    assert outcome.raised("RuntimeError"), outcome.describe()
    assert tf_harness.matches(outcome, "raises RuntimeError")
    assert not tf_harness.matches(outcome, "raises AttributeError")
    assert not tf_harness.matches(outcome, "none") and not tf_harness.matches(outcome, "ok")
    assert (tf.GradientTape.gradient, tf.GradientTape.jacobian) == before
    assert tf_harness.run_program("raise KeyError('x')\n", "k.py").raised("LookupError")


def test_runs_are_repeatable_and_differs_sees_changes(tf_harness):
    a = tf_harness.run_program(CORRECT, "a.py")
    b = tf_harness.run_program(CORRECT, "b.py")
    assert not tf_harness.differs(a, b)
    c = tf_harness.run_program(CORRECT.replace("- y))", "- 2.0 * y))"), "c.py")
    assert tf_harness.differs(a, c)
    assert tf_harness.differs(a, tf_harness.run_program(NUMPY_IN_LOSS, "d.py"))


def test_traced_keras_fit_and_jacobian_are_recorded(tf_harness):
    fit = """\
import numpy as np
import keras
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((8, 4)), np.ones((8, 1)), batch_size=8, epochs=2, verbose=0)
"""
    outcome = tf_harness.run_program(fit, "fit.py")
    assert outcome.ok and len(outcome.gradients) == 2, outcome.describe()
    jac = """\
import tensorflow as tf
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * x
j = tape.jacobian(y, x)
"""
    outcome = tf_harness.run_program(jac, "jac.py")
    assert outcome.ok and len(outcome.gradients) == 1, outcome.describe()
    assert outcome.gradients[0][0].tolist() == [[2.0, 0.0], [0.0, 4.0]]


def test_program_namespace_is_fresh_main(tf_harness):
    outcome = tf_harness.run_program(
        "assert __name__ == '__main__'\nassert 'leak' not in globals()\nleak = 1\n", "m.py")
    assert outcome.error is None
    assert tf_harness.run_program("assert 'leak' not in globals()\n", "m2.py").error is None


def test_header_parsing(tf_harness):
    source = (
        "# expect: GG102 GG101\n"
        "# tensorflow: raises RuntimeError\n"
        "# fixed: ok\n"
        "# shape: DQN target through .numpy()\n"
        "# source: https://example.org/thread\n"
        "# family: 5\n"
        "import tensorflow as tf\n"
        "# expect: GG999\n"
        "# gap: after the header: not read\n"
    )
    assert tf_harness.parse_header(source) == {
        "expect": ["GG101", "GG102"],
        "findings": ["GG101", "GG102"],
        "tensorflow": "raises RuntimeError",
        "fixed": "ok",
        "shape": "DQN target through .numpy()",
        "source": "https://example.org/thread",
        "family": "5",
        "gap": None,
        "heldout": "",
    }
    ok = tf_harness.parse_header("# expect: none\n# tensorflow: ok\n# shape: x\n")
    assert ok["expect"] == [] and ok["fixed"] is None and ok["tensorflow"] == "ok"


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {"cell_type": "markdown", "metadata": {}, "source": ["# title\n"]},
                *(
                    {
                        "cell_type": "code",
                        "metadata": {},
                        "execution_count": None,
                        "outputs": [],
                        "source": cell.splitlines(keepends=True),
                    }
                    for cell in cells
                ),
            ],
        }
    )


def test_notebook_runs_cells_in_order(tf_harness):
    nb = _notebook(
        "# expect: GG101\n# tensorflow: none\n# fixed: ok\n# shape: nb\n%matplotlib inline\nimport tensorflow as tf\nw = tf.Variable(2.0)",
        "!pip install nothing\nwith tf.GradientTape() as tape:\n    loss = tf.constant(w.numpy() * 3.0)\n",
        "grads = tape.gradient(loss, [w])\n",
    )
    source = tf_harness.notebook_source(nb)
    lines = source.splitlines()
    assert lines[4] == "" and lines[7] == ""  # magics blanked, numbering kept
    assert lines[8] == "with tf.GradientTape() as tape:"
    assert tf_harness.parse_header(nb)["expect"] == ["GG101"]
    outcome = tf_harness.run_program(nb, "nb.ipynb")
    assert outcome.error is None, outcome.describe()
    assert outcome.gradients == [[None]]
    assert tf_harness.matches(outcome, "none")
    # Out of order, the tape would not exist yet: the cells really run in notebook order.
    reordered = json.loads(nb)
    reordered["cells"][2], reordered["cells"][3] = reordered["cells"][3], reordered["cells"][2]
    assert tf_harness.run_program(json.dumps(reordered), "nb.ipynb").raised("NameError")


def test_outcome_properties_directly(tf_harness):
    assert not tf_harness.Outcome().ok
    assert tf_harness.Outcome(error=ValueError("No gradients provided for any variable")).no_gradient
    assert not tf_harness.Outcome(gradients=[[None]], error=KeyError("x")).ok
    assert not tf_harness.matches(tf_harness.Outcome(gradients=[[None]], error=KeyError("unrelated")), "none")


def test_numpy_behavior_switch_does_not_leak_into_the_next_program(tf_harness):
    enable = (
        "import tensorflow as tf\n"
        "import tensorflow.experimental.numpy as tnp\n"
        "tnp.experimental_enable_numpy_behavior()\n"
        "assert hasattr(tf.constant(1.0), 'mean')\n"
    )
    assert tf_harness.run_program(enable, "enable.py").error is None
    # np.mean on a tensor must leave TensorFlow again (no .mean method to dispatch to)
    outcome = tf_harness.run_program(NUMPY_IN_LOSS.replace(
        "model(x, training=True).numpy()", "np.mean(model(x, training=True), axis=1, keepdims=True)"), "np.py")
    assert outcome.no_gradient, outcome.describe()


DATASET_LOOP_IN_FUNCTION = """\
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(tf.range(6, dtype=tf.float32)).batch(2)


@tf.function
def total(ds):
    s = tf.constant(0.0)
    for batch in ds:
        s += tf.reduce_sum(batch) * 2.0
    return s


# AutoGraph needs the source: without it, to_code raises (and the loop, left as Python, would
# iterate symbolic elements of the dataset forever).
converted = tf.autograph.to_code(total.python_function)
assert "for_stmt" in converted, converted
assert total(ds).numpy() == 30.0
ops = {op.type for op in total.get_concrete_function(ds).graph.get_operations()}
assert "ReduceDataset" in ops, sorted(ops)
"""


def test_autograph_converts_a_dataset_loop_in_a_tf_function(tf_harness):
    import linecache

    linecache.cache.pop("loop.py", None)
    outcome = tf_harness.run_program(DATASET_LOOP_IN_FUNCTION, "loop.py")
    assert outcome.error is None, outcome.describe()
    assert "loop.py" not in linecache.cache  # the program's lines are registered for the run only
    earlier = (1, None, ["x = 1\n"], "loop.py")
    linecache.cache["loop.py"] = earlier
    try:
        outcome = tf_harness.run_program(DATASET_LOOP_IN_FUNCTION.replace("== 30.0", "== 31.0"), "loop.py")
        assert outcome.raised("AssertionError")
        assert linecache.cache["loop.py"] is earlier
    finally:
        linecache.cache.pop("loop.py", None)
