"""What the model knows of TensorFlow, Keras and Python by name: constructors, attributes, methods."""
from __future__ import annotations

import ast

KERAS_MODEL_FACTORIES = (
    "keras.Sequential", "keras.Model", "keras.models.Sequential", "keras.models.Model",
    "keras.models.load_model", "keras.models.clone_model", "keras.saving.load_model",
)
KERAS_MODEL_PREFIXES = ("keras.layers.", "keras.applications.", "tensorflow_hub.")
KERAS_BASES = {"Model", "Layer", "Sequential", "Loss"}
KERAS_MODEL_PACKAGES = ("keras.layers.", "keras.models.", "keras.losses.", "keras.applications.", "keras.src.layers.",
                        "keras.src.models.", "keras.src.losses.")
TENSOR_ATTRS_WITHOUT_GRADIENT = {"shape", "dtype", "ndim", "name", "device", "size", "graph", "op"}
VARIABLE_ATTRS = {"trainable_variables", "trainable_weights", "variables", "weights"}
# One weight of a Keras layer (`layer.kernel`): a variable of the layer's.
WEIGHT_ATTRS = {"kernel", "bias", "recurrent_kernel", "embeddings", "gamma", "beta", "depthwise_kernel",
                "pointwise_kernel"}
PREDICT_METHODS = {"predict", "predict_on_batch", "predict_step"}
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
NOT_TENSOR_NAMESPACES = ("tensorflow.nest.", "tensorflow.saved_model.", "tensorflow.train.", "tensorflow.data.",
                         "tensorflow.summary.", "tensorflow.io.gfile.", "tensorflow.config.", "tensorflow.distribute.",
                         "tensorflow.Module", "tensorflow.function", "tensorflow.compat.v1.train.",
                         "tensorflow.compat.v1.saved_model.")
GRADIENT_METHODS = {"gradient", "jacobian", "batch_jacobian"}
FIT_METHODS = {"fit", "fit_generator", "train_on_batch"}  # Keras differentiates the compiled loss
COLLECTION_ADDERS = {"append", "extend", "insert", "add", "appendleft", "update"}


def is_integer_dtype(node: ast.AST, imports) -> bool:
    """A dtype argument that is not differentiable: `tf.int32`, `"int64"`, `np.uint8`, `tf.qint8`,
    `tf.bool`, `"bool"` (as written: a constant string, or a name the imports resolve)."""
    text = str(node.value) if isinstance(node, ast.Constant) else (imports.qualname(node) or "").rsplit(".", 1)[-1]
    return text.startswith(("int", "uint", "qint", "quint", "bool"))
