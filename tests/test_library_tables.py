"""The library tables of the value model, entry by entry, against TensorFlow.

Each table is plain data (model/callbacks.py, model/objects.py, model/layers.py); what an entry
says is checked here by running TensorFlow, and each table must have a check for every entry it
names, so a new entry arrives with its proof:

* CALLBACKS: the library calls the function it is given, so a variable read only inside that
  function gets its gradient (and gradguard, following the call, claims nothing);
* GRAPH_LOOPS / VECTORIZED_FALLBACK: traced (or, for the fallback, eagerly), a cut inside the
  loop's function gives zeros, not None;
* TFP_HOLDERS: an object built before the tape from a variable, evaluated inside it, reads it;
* WEIGHTLESS_LAYERS: the Keras layer has no trainable weights;
* GRAPH_COLLECTIONS: TF 1's collections are lists (of the graph's variables), not tensors, so
  gradguard claims nothing of them as sources;
* KERAS_2_ONLY: Keras 3 (TensorFlow 2.21's `tf.keras`) has no such name, so code using it runs
  under Keras 2 alone, where a traced `call` trains (GG310 says nothing).
"""
from __future__ import annotations

import pytest

from gradguard.rules import analyze
from gradguard.rules.model.callbacks import CALLBACKS, GRAPH_LOOPS, VECTORIZED_FALLBACK
from gradguard.rules.model.layers import WEIGHTLESS_LAYERS
from gradguard.rules.model.library import GRAPH_COLLECTIONS, KERAS_2_ONLY

# For each function of CALLBACKS (aliases aside), a call whose function `f` reads `w` only inside.
CALLBACK_CALLS = {
    "map": "out = tf.reduce_sum(list(map(f, [x]))[0])",
    "functools.reduce": "out = functools.reduce(lambda acc, t: acc + f(t), [x, x], 0.0)",
    "tensorflow.map_fn": "out = tf.map_fn(f, x)",
    "tensorflow.vectorized_map": "out = tf.vectorized_map(f, x)",
    "tensorflow.nest.map_structure": "out = tf.nest.map_structure(f, x)",
    "tensorflow.scan": "out = tf.scan(lambda acc, t: acc + f(t), x)",
    "tensorflow.foldl": "out = tf.foldl(lambda acc, t: acc + f(t), x)",
    "tensorflow.foldr": "out = tf.foldr(lambda acc, t: acc + f(t), x)",
    "tensorflow.while_loop": "out = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, f(t)), (tf.constant(0), x))[1]",
    "tensorflow.cond": "out = tf.cond(tf.constant(True), lambda: f(x), lambda: x)",
    "keras.ops.vectorized_map": "out = keras.ops.vectorized_map(f, x)",
    "keras.ops.fori_loop": "out = keras.ops.fori_loop(0, 2, lambda i, t: f(t), x)",
    "keras.ops.while_loop": "out = keras.ops.while_loop(lambda t: tf.reduce_sum(t) < 100.0, lambda t: (f(t),), (x,))[0]",
    "keras.ops.cond": "out = keras.ops.cond(tf.constant(True), lambda: f(x), lambda: x)",
}
def _callback_program(call: str) -> str:
    return ("import functools\nimport tensorflow as tf\nimport keras\n\n"
            "w = tf.Variable(1.5)\nx = tf.ones((2, 3))\n\n\n"
            "def f(t):\n    return t * w\n\n\n"
            f"with tf.GradientTape() as tape:\n    {call}\n    loss = tf.reduce_sum(out)\n"
            "grads = tape.gradient(loss, [w])\n")


def test_every_callback_entry_has_its_tensorflow_check():
    named = {name for name in CALLBACKS if not name.startswith(("tensorflow.compat.", "keras.ops.core."))}
    assert named == set(CALLBACK_CALLS)


@pytest.mark.parametrize("name", sorted(CALLBACK_CALLS))
def test_a_callback_is_called_by_the_library(name, tf_harness):
    source = _callback_program(CALLBACK_CALLS[name])
    outcome = tf_harness.run_program(source, f"callback_{name.replace('.', '_')}.py")
    assert outcome.ok, outcome.describe()
    assert [d.code for d in analyze(source)] == []  # gradguard sees `w` read there


def _loop_program(call: str, traced: bool) -> str:
    body = (f"    with tf.GradientTape() as tape:\n        {call}\n        loss = tf.reduce_sum(out)\n"
            "    return tape.gradient(loss, [w])\n")
    return ("import tensorflow as tf\nimport keras\n\n"
            "w = tf.Variable(1.5)\nx = tf.ones((2, 3))\n\n\n"
            + ("@tf.function\n" if traced else "") + "def step():\n" + body + "\n\ngrads = step()\n")


# A cut inside each loop's function: the traced loop's gradient is zeros (present), not None.
LOOP_CUTS = {
    "tensorflow.map_fn": "out = tf.map_fn(lambda t: tf.stop_gradient(t * w), x)",
    "tensorflow.scan": "out = tf.scan(lambda acc, t: acc + tf.stop_gradient(t * w), x)",
    "tensorflow.foldl": "out = tf.foldl(lambda acc, t: acc + tf.stop_gradient(t * w), x)",
    "tensorflow.foldr": "out = tf.foldr(lambda acc, t: acc + tf.stop_gradient(t * w), x)",
    "tensorflow.while_loop": ("out = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, tf.stop_gradient(t)),"
                              " (tf.constant(0), x * w))[1]"),
    "keras.ops.fori_loop": "out = keras.ops.fori_loop(0, 2, lambda i, t: tf.stop_gradient(t), x * w)",
    "keras.ops.while_loop": ("out = keras.ops.while_loop(lambda t: tf.reduce_sum(t) < 100.0,"
                             " lambda t: (tf.stop_gradient(t) * 2.0,), (x * w,))[0]"),
}


def test_every_graph_loop_entry_has_its_tensorflow_check():
    assert {name for name in GRAPH_LOOPS if not name.startswith(("tensorflow.compat.", "keras.ops.core."))} \
        == set(LOOP_CUTS)


@pytest.mark.parametrize("name", sorted(LOOP_CUTS))
def test_a_cut_inside_a_traced_loop_gives_zeros_not_none(name, tf_harness):
    source = _loop_program(LOOP_CUTS[name], traced=True)
    outcome = tf_harness.run_program(source, f"loop_{name.replace('.', '_')}.py")
    assert outcome.ok, outcome.describe()  # present: zeros
    assert not analyze(source)  # no None claimed


def test_numpy_function_inside_vectorized_map_falls_back_to_a_loop(tf_harness):
    assert set(VECTORIZED_FALLBACK) >= {"tensorflow.vectorized_map"}
    call = "out = tf.vectorized_map(lambda t: tf.numpy_function(lambda a: a * 2.0, [t], tf.float32), x * w)"
    source = _loop_program(call, traced=False)
    outcome = tf_harness.run_program(source, "vectorized_fallback.py")
    assert outcome.ok, outcome.describe()
    assert not analyze(source)
    # What it can vectorize keeps TensorFlow's None: gradguard still says so.
    cut = _loop_program("out = tf.vectorized_map(lambda t: tf.stop_gradient(t), x * w)", traced=True)
    assert tf_harness.run_program(cut, "vectorized_cut.py").no_gradient
    assert [d.code for d in analyze(cut)] == ["GG201"]


# TF Probability and TensorFlow objects that keep references (objects.TFP_HOLDERS): one of each
# kind, built before the tape from the variable `v`, evaluated inside it.
HOLDERS = {
    "distribution": ("tfp.distributions.Normal(loc=v, scale=1.0)", "obj.log_prob(0.5)"),
    "alternate constructor": ("tfp.distributions.Gamma.experimental_from_mean_variance(v, 1.0)",
                              "obj.log_prob(0.3)"),
    "bijector": ("tfp.bijectors.Scale(v)", "obj.forward(2.0)"),
    "kernel": ("tfp.math.psd_kernels.ExponentiatedQuadratic(amplitude=v)",
               "tf.reduce_sum(obj.matrix(tf.ones((2, 1)), tf.zeros((2, 1))))"),
    "linear operator": ("tf.linalg.LinearOperatorScaledIdentity(num_rows=2, multiplier=v)",
                        "tf.reduce_sum(obj.matvec(tf.ones(2)))"),
    "joint distribution": ("tfp.distributions.JointDistributionSequential([tfp.distributions.Normal(v, 1.0),"
                           " lambda z: tfp.distributions.Normal(z, 1.0)])", "obj.log_prob([0.1, 0.2])"),
}


def test_a_tfp_object_of_a_tensor_computed_before_the_tape_is_cut(tf_harness):
    """The twin: `tf.stack([v, v])` runs when the operator is built, before the tape."""
    source = ("import tensorflow as tf\n\nv = tf.Variable(1.5)\nobj = tf.linalg.LinearOperatorDiag(tf.stack([v, v]))\n"
              "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(obj.matvec(tf.ones(2)))\n"
              "grads = tape.gradient(loss, [v])\n")
    assert tf_harness.run_program(source, "holder_computed.py").no_gradient
    assert [d.code for d in analyze(source)] == ["GG301"]


@pytest.mark.parametrize("kind", sorted(HOLDERS))
def test_a_tfp_object_built_before_the_tape_reads_its_variable(kind, tf_harness):
    build, evaluate = HOLDERS[kind]
    source = ("import tensorflow as tf\nimport tensorflow_probability as tfp\n\n"
              f"v = tf.Variable(1.5)\nobj = {build}\n"
              f"with tf.GradientTape() as tape:\n    loss = {evaluate}\ngrads = tape.gradient(loss, [v])\n")
    outcome = tf_harness.run_program(source, f"holder_{kind.replace(' ', '_')}.py")
    assert outcome.ok, outcome.describe()
    assert not analyze(source)


# Arguments for the weightless layers that need some, and the input each is called on.
_LAYER_ARGS = {
    "Activation": ("relu",), "Lambda": (lambda t: t,), "Reshape": ((2, 2),), "RepeatVector": (2,),
    "Permute": ((1,),), "Resizing": (2, 2), "CenterCrop": (2, 2), "RandomCrop": (2, 2),
    "RandomRotation": (0.1,), "RandomZoom": (0.1,), "RandomTranslation": (0.1, 0.1),
    "RandomContrast": (0.1,), "RandomBrightness": (0.1,), "Cropping1D": (1,), "Cropping2D": (1,),
    "Cropping3D": (1,), "Dot": (1,), "AlphaDropout": (0.1,), "Dropout": (0.1,), "GaussianDropout": (0.1,),
    "GaussianNoise": (0.1,), "SpatialDropout1D": (0.1,), "SpatialDropout2D": (0.1,), "SpatialDropout3D": (0.1,),
    **{f"{kind}Pooling{d}D": (2,) for kind in ("Average", "Max") for d in (1, 2, 3)},
}
_MERGING = {"Add", "Average", "Concatenate", "Dot", "Maximum", "Minimum", "Multiply", "Subtract"}
_INPUT_RANK = {"1D": 3, "2D": 4, "3D": 5}
_IMAGES = {"Resizing", "CenterCrop", "RandomCrop", "RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation",
           "RandomContrast", "RandomBrightness", "Rescaling"}


@pytest.mark.tf
def test_the_weightless_layers_have_no_trainable_weights():
    import numpy as np
    import keras

    checked = []
    for name in sorted(WEIGHTLESS_LAYERS):
        if name in ("Input", "InputLayer"):
            assert hasattr(keras, "Input") and hasattr(keras.layers, "InputLayer")
            continue
        cls = getattr(keras.layers, name)
        layer = cls(*_LAYER_ARGS.get(name, ()), **({"scale": 0.5} if name == "Rescaling" else {}))
        rank = next((r for suffix, r in _INPUT_RANK.items() if name.endswith(suffix)), 2)
        if name in _IMAGES:
            rank = 4
        shape = (2,) + (4,) * (rank - 1)
        if name in ("TextVectorization", "StringLookup"):
            layer.adapt(np.array(["a b", "c"])) if name == "TextVectorization" else layer.adapt(np.array(["a", "c"]))
            layer(np.array(["a c"]))
        elif name == "Normalization":
            layer.adapt(np.ones(shape, dtype="float32"))
            layer(np.ones(shape, dtype="float32"))
        elif name in _MERGING:
            layer([np.ones((2, 4), dtype="float32"), np.ones((2, 4), dtype="float32")])
        else:
            layer(np.ones(shape, dtype="float32"))
        assert layer.trainable_weights == [], name
        checked.append(name)
    assert len(checked) == len(WEIGHTLESS_LAYERS) - 2


@pytest.mark.tf
@pytest.mark.parametrize("name", [n for n in GRAPH_COLLECTIONS if ".compat.v1." in n])
def test_a_graph_collection_is_a_list_of_variables_not_a_tensor(name):
    import tensorflow as tf

    function = name.removeprefix("tensorflow.compat.v1.")
    arguments = (tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES,) if function.startswith("get_collection") else ()
    with tf.Graph().as_default():
        variable = tf.compat.v1.Variable(1.0)
        found = getattr(tf.compat.v1, function)(*arguments)
    assert isinstance(found, list) and all(isinstance(v, tf.Variable) for v in found)
    if function in ("trainable_variables", "global_variables", "all_variables", "get_collection"):
        assert variable in found
    call = f"tf.compat.v1.{function}({'tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES' if arguments else ''})"
    source = ("import tensorflow as tf\n\nx = tf.ones(3)\nwith tf.GradientTape() as tape:\n"
              f"    loss = tf.reduce_sum(x)\ngrads = tape.gradient(loss, {call})\n")
    assert [d.code for d in analyze(source)] == []  # no plain tensor claimed unwatched


def _resolves(qualname: str) -> bool:
    import importlib

    parts = qualname.split(".")
    found = importlib.import_module(parts[0])
    for index, part in enumerate(parts[1:], 1):
        try:
            found = getattr(found, part)
        except AttributeError:
            try:
                found = importlib.import_module(".".join(parts[:index + 1]))
            except ImportError:
                return False
    return True


@pytest.mark.tf
@pytest.mark.parametrize("name", KERAS_2_ONLY)
def test_a_keras_2_name_is_absent_from_keras_3(name):
    import tensorflow as tf  # noqa: F401  (tf.keras is Keras 3)

    assert _resolves("keras.layers.Layer") and _resolves("tensorflow.keras.layers.Layer")
    assert not _resolves(name)
    assert not _resolves("tensorflow." + name)


def test_a_traced_call_of_a_keras_2_class_is_not_reported():
    traced = ("import tensorflow as tf\n\n\nclass Cell({base}):\n    def __init__(self):\n"
              "        super().__init__()\n        self.dense = tf.keras.layers.Dense(3)\n\n"
              "    @tf.function\n    def call(self, inputs, states):\n        return self.dense(inputs), states\n")
    assert [d.code for d in analyze(traced.format(base="tf.keras.layers.Layer"))] == ["GG310"]
    assert [d.code for d in analyze(traced.format(base="tf.keras.layers.AbstractRNNCell"))] == []
    imported = "from tensorflow.keras.mixed_precision import experimental as prec\n" + traced.format(base="tf.keras.layers.Layer")
    assert [d.code for d in analyze(imported)] == []
