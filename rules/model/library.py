"""What the model knows of TensorFlow, Keras and Python by name: constructors, attributes, methods."""
from __future__ import annotations

import ast

from ..source.imports import is_numpy, is_tensorflow
from ..source.questions import ModuleQuestion

KERAS_MODEL_FACTORIES = (
    "keras.Sequential", "keras.Model", "keras.models.Sequential", "keras.models.Model",
    "keras.models.load_model", "keras.models.clone_model", "keras.saving.load_model",
)
KERAS_MODEL_PREFIXES = ("keras.layers.", "keras.applications.", "tensorflow_hub.")
KERAS_BASES = {"Model", "Layer", "Sequential", "Loss"}
# Calls that make a constant from the numbers they are given (`tf.constant(0.0)`, GG313).
CONSTANT_MAKERS = {"tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.zeros", "tensorflow.ones",
                   "keras.ops.convert_to_tensor", "keras.ops.zeros", "keras.ops.ones", "numpy.float32",
                   "numpy.array", "numpy.zeros"}
# Ops that run a Python function on numpy values (GG107): nothing inside is differentiable.
NUMPY_FUNCTIONS = {"tensorflow.numpy_function", "tensorflow.compat.v1.numpy_function",
                   "tensorflow.compat.v1.py_func", "tensorflow.py_func"}
# `tf.Variable` and its older spellings (TF 1's eager `tfe.Variable`).
VARIABLE_CONSTRUCTORS = {"tensorflow.Variable", "tensorflow.compat.v1.Variable", "tensorflow.contrib.eager.Variable"}
TF_FUNCTION = ("tensorflow.function", "tensorflow.compat.v2.function", "tensorflow.compat.v1.function")
# `tf.Module`: variables set on `self` are tracked (`trainable_variables`) and `__call__` is the
# forward pass, as a Keras layer's `call` is.
TF_MODULES = {"tensorflow.Module", "tensorflow.compat.v2.Module"}
KERAS_MODEL_PACKAGES = ("keras.layers.", "keras.models.", "keras.losses.", "keras.applications.", "keras.src.layers.",
                        "keras.src.models.", "keras.src.losses.")
TENSOR_ATTRS_WITHOUT_GRADIENT = {"shape", "dtype", "ndim", "name", "device", "size", "graph", "op"}
VARIABLE_ATTRS = {"trainable_variables", "trainable_weights", "variables", "weights"}
# One weight of a Keras layer (`layer.kernel`): a variable of the layer's.
WEIGHT_ATTRS = {"kernel", "bias", "recurrent_kernel", "embeddings", "gamma", "beta", "depthwise_kernel",
                "pointwise_kernel"}
PREDICT_METHODS = {"predict", "predict_on_batch", "predict_step"}
# Attributes of a Keras model or layer (or `tf.Module`) that are no tensor of its: configuration,
# state flags, shapes, its optimizer and metrics, its non-trainable variables. Any other attribute
# the model cannot see (`critic.w`, a bound method `critic.value`) may be or read its variables.
MODEL_ATTRS_WITHOUT_GRADIENT = {
    "built", "trainable", "input_shape", "output_shape", "input_spec", "optimizer", "loss", "metrics",
    "metrics_names", "history", "stop_training", "compute_dtype", "variable_dtype", "dtype_policy",
    "supports_masking", "name_scope", "distribute_strategy", "run_eagerly", "steps_per_execution",
    "non_trainable_variables", "non_trainable_weights", "inbound_nodes", "outbound_nodes", "updates",
}
# Methods of a Keras model or layer that return a model (`critic.copy(name="critic_2")`).
MODEL_RETURNING_METHODS = {"copy", "clone", "get_layer", "__copy__", "__deepcopy__"}
# Methods of a Keras model or layer that do not run its forward pass; any other method the model
# cannot see (`actor.log_prob(s)`, `policy.sample(s)`) is taken to use the model's variables.
NOT_FORWARD_METHODS = {
    "get_weights", "set_weights", "summary", "save", "save_weights", "load_weights", "count_params", "compile",
    "fit", "evaluate", "train_on_batch", "test_on_batch", "fit_generator", "evaluate_generator", "get_config",
    "from_config", "to_json", "build", "reset_states", "reset_metrics", "add_loss", "add_metric", "add_weight",
    "add_variable", "get_layer", "compute_output_shape", "make_train_function", "make_predict_function",
    "load_own_variables", "save_own_variables", "export", "get_build_config", "get_compile_config",
    # a tensor's or an array's, not a model's: a "model" that has them is a tensor misnamed
    "numpy", "item", "tolist", "astype",
}
# TensorFlow functions that do not return a tensor: structures (`tf.nest.flatten(variables)` keeps
# what it is given), restored objects, checkpoints, datasets, summaries, configuration.
# TF 1's graph collections: lists of the graph's variables (or of whatever a collection holds).
GRAPH_COLLECTIONS = ("tensorflow.compat.v1.trainable_variables", "tensorflow.compat.v1.global_variables",
                     "tensorflow.compat.v1.local_variables", "tensorflow.compat.v1.model_variables",
                     "tensorflow.compat.v1.moving_average_variables", "tensorflow.compat.v1.all_variables",
                     "tensorflow.compat.v1.get_collection", "tensorflow.compat.v1.get_collection_ref")
# (TF 1 spelled them without `compat.v1`: `tf.trainable_variables()`.)
GRAPH_COLLECTIONS += tuple(name.replace(".compat.v1.", ".") for name in GRAPH_COLLECTIONS)
NOT_TENSOR_NAMESPACES = GRAPH_COLLECTIONS + ("tensorflow.nest.", "tensorflow.saved_model.", "tensorflow.train.", "tensorflow.data.",
                         "tensorflow.summary.", "tensorflow.io.gfile.", "tensorflow.config.", "tensorflow.distribute.",
                         "tensorflow.Module", "tensorflow.function", "tensorflow.compat.v1.train.",
                         "tensorflow.compat.v1.saved_model.")
# Keras 2 names that Keras 3 does not have (TensorFlow 2.21's `tf.keras` is Keras 3): code that
# imports one, or a class derived from one, runs under Keras 2 alone (`tf_keras`).
KERAS_2_ONLY = ("keras.layers.AbstractRNNCell", "keras.layers.experimental", "keras.layers.DenseFeatures",
                "keras.layers.CuDNNLSTM", "keras.layers.CuDNNGRU", "keras.mixed_precision.experimental",
                "keras.engine", "keras.wrappers.scikit_learn", "keras.utils.generic_utils",
                "keras.backend.get_session")


_KERAS_2_PREFIXES = tuple(name + "." for name in KERAS_2_ONLY)


def is_keras_2_only(qualname: str | None) -> bool:
    return qualname is not None and (qualname in KERAS_2_ONLY or qualname.startswith(_KERAS_2_PREFIXES))


GRADIENT_METHODS = {"gradient", "jacobian", "batch_jacobian"}
FIT_METHODS = {"fit", "fit_generator", "train_on_batch"}  # Keras differentiates the compiled loss


def known_library(qualname: str) -> bool:
    """A function of a library whose meaning is known here: TensorFlow's and Keras's ops (the
    no-gradient table says which cut), NumPy's, and TF Probability's (the holder tables). Any other
    library's function is unknown: its result may depend on all it is given, and proves nothing."""
    return is_tensorflow(qualname) or is_numpy(qualname) or qualname.startswith("tensorflow_probability.")


# `Value.role` of a `tf.Variable(..., trainable=False)`: a tensor to the tape, which records it
# only when told to watch it.
UNTRAINABLE = "non-trainable variable"
# `Value.role` of a tape made by `tf.GradientTape(...)` here: (TAPE_MADE, whether it is persistent).
TAPE_MADE = "tape made"


def persistent_tape(call: ast.Call) -> bool:
    """`tf.GradientTape(persistent=True)` (or a first argument that is not a false constant)."""
    for keyword in call.keywords:
        if keyword.arg == "persistent":
            return not (isinstance(keyword.value, ast.Constant) and not keyword.value.value)
    return bool(call.args) and not (isinstance(call.args[0], ast.Constant) and not call.args[0].value)


COLLECTION_ADDERS = frozenset({"append", "extend", "insert", "add", "appendleft", "update"})


def is_traced_def(node: ast.AST, imports) -> bool:
    """`@tf.function` (or `@tf.function(...)`) on the function."""
    for decorator in getattr(node, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if imports.qualname(target) in TF_FUNCTION:
            return True
    return False


def is_integer_dtype(node: ast.AST, imports) -> bool:
    """A dtype argument that is not differentiable: `tf.int32`, `"int64"`, `np.uint8`, `tf.qint8`,
    `tf.bool`, `"bool"` (as written: a constant string, or a name the imports resolve)."""
    text = str(node.value) if isinstance(node, ast.Constant) else (imports.qualname(node) or "").rsplit(".", 1)[-1]
    return text.startswith(("int", "uint", "qint", "quint", "bool"))


# What only TensorFlow 1 graph code uses: there `minimize(loss_tensor)` is how training is written.
_GRAPH_APIS = ("tensorflow.Session", "tensorflow.placeholder", "tensorflow.Graph", "tensorflow.estimator.",
               "tensorflow.compat.v1.Session", "tensorflow.compat.v1.placeholder", "tensorflow.compat.v1.Graph",
               "tensorflow.compat.v1.estimator.", "tensorflow.compat.v1.disable_eager_execution",
               "tensorflow.compat.v1.disable_v2_behavior", "tensorflow.disable_eager_execution",
               "tensorflow.disable_v2_behavior", "tensorflow_estimator.",
               # variables initialised for a session; a branch on the mode (`if tf.executing_eagerly(): return`)
               "tensorflow.compat.v1.global_variables_initializer", "tensorflow.global_variables_initializer",
               "tensorflow.executing_eagerly", "tensorflow.compat.v1.executing_eagerly")
# `tf.test.TestCase`'s graph sessions: `with self.cached_session() as sess: sess.run(train_op)`.
_TEST_SESSIONS = {"cached_session", "test_session"}
_TF1_ONLY_OPTIMIZER = "tensorflow.train."  # gone in TensorFlow 2 (there: tf.compat.v1.train)


def _graph_attributes(nodes, imports) -> bool:
    return any(isinstance(node, ast.Attribute) and graph_attribute(node, imports) for node in nodes)


# The file is TensorFlow 1 graph code: it imports `tensorflow.compat.v1` as its `tf`, or uses
# sessions (a test case's too), placeholders, graphs, Estimators, TF1-only optimizers or a test of
# the execution mode anywhere (a question about the whole module: `doc.ask(builds_graphs)`).
builds_graphs = ModuleQuestion("builds_graphs", _graph_attributes,
                               lambda facts, imports: imports.tensorflow_v1_as_tf or any(facts), uses_imports=True)


def graph_attribute(node: ast.Attribute, imports) -> bool:
    """`tf.Session`, `tf.compat.v1.placeholder`, `self.cached_session`: an attribute that only TF1
    graph code uses (`builds_graphs` asks it of every attribute of the module)."""
    qual = imports.qualname(node) or ""
    if qual.startswith(_GRAPH_APIS) or (qual.startswith(_TF1_ONLY_OPTIMIZER) and qual.endswith("Optimizer")):
        return True
    return node.attr in _TEST_SESSIONS and isinstance(node.value, ast.Name) and node.value.id == "self"


def keyword_constant(node: ast.Call, name: str, default):
    """The literal given for keyword `name` (`trainable=False`), else `default`."""
    for keyword in node.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return default


def spelled_constant(node: ast.AST, imports) -> bool:
    """A number, or a TensorFlow / NumPy constant made from numbers only."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Call) and imports.qualname(node.func) in CONSTANT_MAKERS:
        parts = [n for arg in [*node.args, *node.keywords] for n in ast.walk(arg)]
        return all(isinstance(n, _SPELLED) or isinstance(n, (ast.Name, ast.Attribute)) and imports.qualname(n)
                   for n in parts if not isinstance(n, (ast.expr_context, ast.unaryop)))
    return False


# What a constant's arguments may be made of: numbers, shapes, dtypes (`tf.float32`, checked above).
_SPELLED = (ast.Constant, ast.Tuple, ast.List, ast.UnaryOp, ast.keyword)
