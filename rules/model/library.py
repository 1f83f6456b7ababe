"""What the model knows of TensorFlow, Keras and Python by name: constructors, attributes, methods."""
from __future__ import annotations

KERAS_MODEL_FACTORIES = (
    "keras.Sequential", "keras.Model", "keras.models.Sequential", "keras.models.Model",
    "keras.models.load_model", "keras.models.clone_model", "keras.saving.load_model",
)
KERAS_MODEL_PREFIXES = ("keras.layers.", "keras.applications.", "tensorflow_hub.")
KERAS_BASES = {"Model", "Layer", "Sequential", "Loss"}
TENSOR_ATTRS_WITHOUT_GRADIENT = {"shape", "dtype", "ndim", "name", "device", "size", "graph", "op"}
VARIABLE_ATTRS = {"trainable_variables", "trainable_weights", "variables", "weights"}
# One weight of a Keras layer (`layer.kernel`): a variable of the layer's.
WEIGHT_ATTRS = {"kernel", "bias", "recurrent_kernel", "embeddings", "gamma", "beta", "depthwise_kernel",
                "pointwise_kernel"}
PREDICT_METHODS = {"predict", "predict_on_batch", "predict_step"}
GRADIENT_METHODS = {"gradient", "jacobian", "batch_jacobian"}
COLLECTION_ADDERS = {"append", "extend", "insert", "add", "appendleft", "update"}
