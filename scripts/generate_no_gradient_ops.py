"""Generate ``rules/model/data/no_gradient_ops.json`` from the installed TensorFlow and Keras.

The data says which public TensorFlow, ``keras.ops`` and ``keras.backend``
functions give *no* gradient with respect to their (first) float input, so
that gradguard can flag a loss computed through them.  Nothing in the data is
written by hand: every entry comes out of TensorFlow itself, by two
independent checks that must agree.

Method
------
1. Enumerate the public callables of ``tf``, ``tf.math``, ``tf.dtypes``,
   ``tf.nn``, ``tf.image``, ``tf.linalg``, ``tf.signal``, ``tf.sets``,
   ``tf.sparse``, ``keras.ops`` and its ``numpy``, ``nn``, ``image`` and
   ``linalg`` modules (TensorFlow backend), and ``keras.backend``.  Keras 3's
   own ``keras.backend`` holds only configuration functions; the
   ``K.argmax``/``K.round`` that code spells ``keras.backend.*`` (or
   ``tf.keras.backend.*``) are the Keras 2 backend, i.e. ``tf_keras.backend``
   when it is installed (gradguard folds ``tf_keras`` into ``keras``), so that
   module is scanned under the ``keras.backend`` prefix.  The samplers of
   ``tf.random`` and ``keras.random`` are scanned too (``tf.random.categorical``
   returns integer samples: no gradient w.r.t. its logits), and, when
   TensorFlow Probability is installed, ``tfp.stats`` and ``tfp.math`` under
   their canonical names (``tensorflow_probability.stats.histogram``).
   ``tf.strings`` is not scanned (no float input).  Classes, modules and names
   on a short deny list (functions that mutate global state or variables,
   print, load libraries, take or wrap Python callables, depend on the Keras
   learning phase, or are random -- outside the random namespaces; and
   convolutions and poolings, whose kernels can abort the process on a
   filter of the wrong shape) are skipped.  ``tf.raw_ops`` is not called but
   read from the op registry (see ``_Scanner.raw_ops``).

   Each function is called with a float32 tensor ``x`` as its first argument,
   within a small fixed set of argument patterns, tried in this order (the
   first pattern the function accepts, at the first shape it accepts, decides;
   shapes ``[6]``, ``[2, 3]``, ``[3, 3]``, ``[2, 4, 4, 3]``, ``[4, 4, 3]``):

   ``(x)``            one argument;
   ``(x, same)``      a second float32 tensor of x's shape;
   ``(x, scalar)``    a float32 scalar (``adjust_contrast(x, factor)``);
   ``(x, range)``     a float32 pair ``[-2, 3]`` (``histogram_fixed_width``'s
                      ``value_range``);
   ``(x, index)``     a small sorted int32 tensor as long as x's first
                      dimension (``gather``, ``segment_*``);
   ``(x, 1)``         a Python int (an axis, a ``k``, a count);
   ``(x, 1, seed)``   a count and an int32 seed pair
                      (``tf.random.stateless_categorical``).

   A pattern is tried only when the signature binds it, and is passed over
   when it binds a float tensor to a parameter named ``indices``,
   ``shape`` or ``seed`` (``keras.ops.unravel_index`` accepts floats there and
   returns artefacts).  Float tensor arguments are *watched*; the others are
   constants.  A call that raises is "could not be made": the next pattern
   is tried, and a function no pattern
   can call is not classified (not in the table).  Outputs that are not a
   tensor or a tuple of tensors (Python values, NumPy arrays, SparseTensors,
   variables), string outputs, and graphs with a stateful op (random,
   print, ...; except in the random namespaces, whose sampling ops are
   stateful) are not classified either.

2. Registry check.  The call is traced with ``tf.function`` (float inputs of
   unknown rank, else unknown dimension sizes, else the static shape; so
   that shape functions are not constant-folded) and the graph from the
   first argument's placeholder to the output is walked in topological
   order (the other arguments' statuses come from the tape check alone).
   Gradient flows through an op only if
   ``ops._gradient_registry.lookup(op.type)`` is a function (not a
   ``tf.no_gradient``/``NotDifferentiable`` entry registered as ``None``, and
   not missing), the op has an on-path output of a trainable dtype (TF's own
   ``backprop_util.IsTrainable``: float/complex, not int/bool), and calling
   the gradient function on the traced op returns something other than
   ``None`` for an input that carries gradient (``_RoundGrad``, ``_FloorGrad``,
   ``_ArgMaxGrad``... return all ``None``).  The ops where gradient flow stops
   are the ``ops`` listed in the JSON, restricted to the output's *value*
   path: an input whose gradient the (otherwise differentiable) consumer op
   never computes -- the condition of ``Select``, the ``k`` of ``TopKV2`` --
   is not on it, so ``keras.ops.argmax`` reports ``ArgMax`` and not the
   ``Equal``/``Bitcast`` of its negative-zero fix-up.  Shape/Size/Rank ops
   are reported only when nothing else stops the gradient.  Ops hidden inside
   functional ops (``tf.cond`` -> ``StatelessIf``) are not inlined: the
   functional op itself is reported.  When the tape says "no gradient" and
   nothing on the value path stops it (x reaches the output only through an
   input whose gradient the consumer never computes: the indices of
   ``ScatterNd`` in ``keras.ops.histogram``'s counts, the dims of ``Fill``
   in ``keras.ops.full_like``), the walk is redone along every data edge.
   Tracing with the second float argument symbolic too is tried first, then
   with it as a NumPy constant (``keras.ops.digitize`` iterates over bins).

3. Tape check.  ``tf.GradientTape`` watches one float argument at a time;
   the gradient of ``reduce_sum(cast(out, float32))`` (summed over the
   outputs of a tuple) with respect to it is ``None`` ("none"), a tensor
   ("gradient"), or the gradient call raises ``LookupError``: an op on the
   path has no registry entry at all (``tf.image.adjust_contrast`` ->
   ``AdjustContrastv2``, ``tf.truncatemod``, ``keras.ops.unique``).

A function is listed when the first argument's status is "none" or
"LookupError", the registry walk agrees (no gradient reaches the output, and
it names the ops that stop it) and the output depends on the input (the
traced output is reachable from the input placeholder).  The entry records
the pattern's arguments by parameter name and what each float argument got
(``args``), and ``tape``: ``"none"`` (TensorFlow silently returns ``None``)
or ``"LookupError"`` (TensorFlow raises when the gradient is asked for; the
variables before the op still get no gradient, so gradguard reports it the
same way).  A second float argument may carry gradient where the first does
not (``tf.math.zeta(x, q)``, ``tf.math.polygamma(a, x)``): gradguard cuts
only the first argument (its no-gradient rules cut ``args[:1]``).

Outputs of a tuple (``tf.math.top_k(x).indices``, ``tf.unique(x).idx``):
when every output of the call gets no gradient the function is listed as
above; when some do and some do not, the function is not listed, and the
outputs without gradient are listed under ``outputs`` (by field name, or
position for plain tuples) with their own category, ops and position.

None versus zero (the choice gradguard makes, kept from the first table):
gradguard is about ``None`` gradients -- ops that *have no gradient* -- not
about gradients that are zero.  An op whose registered gradient is zero
almost everywhere (``tf.sign``, ``keras.ops.sign``, ``tf.math.abs`` at 0,
``tf.nn.relu`` on negatives) returns a zero tensor, which is a gradient: it is
not listed.  ``tf.round``/``tf.floor``/``tf.math.ceil`` are listed because
TensorFlow registers them as returning ``None``, not because their true
derivative is zero.

*Shape-only* functions (``tf.shape``, ``tf.size``, ``tf.rank``,
``tf.zeros_like``, ``tf.ones_like``...) do depend on the input (its shape) and
a loss computed from them really gets no gradient, so they ARE listed, under
category ``"other"``.  Functions whose output is a constant independent of
the input are not listed (the tape alone cannot tell them apart from
``tf.stop_gradient``-like functions).

Categories
----------
``comparison``  the function returns ``bool`` (equal, greater, is_nan, ...).
``rounding``    every op that stops the gradient is Round/Floor/Ceil/Rint.
``index``       an op that stops the gradient returns indices
                (ArgMax, ArgMin, TopKV2 indices, Where, searchsorted...) and
                the result is integer: a float result without gradient is a
                value, ``other`` (``tf.unique``'s ``y``: Unique has no
                registered gradient and the tape raises; the counts of
                ``keras.ops.histogram``).
``other``       everything else (shape/size/rank, stop_gradient, floordiv,
                count_nonzero, histogram_fixed_width, adjust_contrast,
                random.categorical, tfp.stats.histogram, ...).

A function that casts its float input to an integer dtype before computing
(``keras.ops.one_hot``, ``keras.ops.bincount``, ``keras.ops.nonzero``) has
``Cast`` as its only blocking op; it is ``index`` when an index op follows
on the value path, else ``other``.  (There is no ``cast`` category: explicit
casts -- ``tf.cast(x, tf.int32)``, ``x.astype(int)`` -- are GG403's, and
``tf.cast`` itself is never listed: its gradient depends on the dtype.)

Run ``python scripts/generate_no_gradient_ops.py`` after upgrading TensorFlow
or Keras; ``tests/test_no_gradient_data.py`` fails when the shipped JSON is
out of date.  ``generate(names)`` regenerates only the given qualified names
(the test uses it on a sample).
"""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

# Quiet TensorFlow's C++ logging; must happen before TensorFlow is imported.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT_PATH = REPO_ROOT / "rules" / "model" / "data" / "no_gradient_ops.json"
GENERATED_BY = "scripts/generate_no_gradient_ops.py"

X_VALUES = [-1.7, -0.5, 0.2, 0.5, 1.5, 2.6]
# Second operand for binary ops: shares some values with X_VALUES so that
# equality-like ops see both outcomes.
Y_VALUES = [-1.7, 0.5, 0.2, -0.5, 2.5, 2.6]
# A well-conditioned square matrix (its lower triangle is positive definite,
# for cholesky) for tf.linalg.
SQUARE_VALUES = [2.0, -0.5, 0.3, 0.4, 1.7, -0.2, -0.6, 0.1, 2.2]
SHAPES = ([6], [2, 3], [3, 3], [2, 4, 4, 3], [4, 4, 3])
VALUE_RANGE = [-2.0, 3.0]

ROUNDING_OPS = frozenset({"Round", "Floor", "Ceil", "Rint"})
INDEX_OPS = frozenset({
    "ArgMax", "ArgMin", "TopKV2", "Where", "Unique", "UniqueV2",
    "UniqueWithCounts", "UniqueWithCountsV2", "LowerBound", "UpperBound",
    "Bucketize", "InTopKV2",
})
SHAPE_ONLY_OPS = frozenset({"Shape", "ShapeN", "Size", "Rank"})

# Names never called: they mutate TF's global state (gradient registry,
# conversion registry, Keras session and learning phase), load libraries,
# print, wrap Python callables, or answer differently in training and in
# inference (`K.in_train_phase(x, alt)` returns `alt` outside `fit`).
_DENY_NAMES = frozenset({
    "no_gradient", "NotDifferentiable", "NoGradient", "RegisterGradient",
    "custom_gradient", "recompute_grad", "grad_pass_through",
    "register_tensor_conversion_function", "load_library", "load_op_library",
    "print", "Assert", "py_function", "numpy_function", "function",
    "init_scope", "device", "control_dependencies", "timestamp",
    "in_train_phase", "in_test_phase", "learning_phase", "learning_phase_scope",
    "eager_learning_phase_scope", "manual_variable_initialization",
    "batch_set_value", "track_variable", "track_tf_optimizer",
    "configure_and_create_distributed_session", "variable", "placeholder",
    "update", "update_add", "update_sub", "moving_average_update",
})
# Random or stochastic functions ("skip anything random"), setters and
# getters of global state, printing; stateful ops are additionally rejected
# after tracing.  Convolutions and poolings (all differentiable) are not
# called: with a second argument of x's shape as the filter, some of their
# kernels abort the process on a failed shape CHECK instead of raising.
_DENY_PATTERN = re.compile(
    r"random|dropout|shuffle|sample|(^|_)print|^set_|^get_|^clear_|^reset_"
    r"|conv(?!ert)|pool|dilation|erosion|^assign",
    re.IGNORECASE)
# In the random namespaces (``tf.random``, ``keras.random``) the samplers are
# what is scanned: only setters/getters of global state are skipped there, and
# a stateful graph (the sampling op) is accepted.
_RANDOM_DENY_PATTERN = re.compile(
    r"(^|_)print|^set_|^get_|^clear_|^reset_", re.IGNORECASE)
RANDOM_NAMESPACES = frozenset({"tensorflow.random", "keras.random"})
# TensorFlow Probability functions that take Python callables (optimizers,
# root finders, custom gradients) or mutate variables: never called.
_DENY_NAMES = _DENY_NAMES | frozenset({
    "minimize", "minimize_stateless", "value_and_gradient", "diag_jacobian",
    "scan_associative", "find_root_chandrupatla", "find_root_secant",
    "bracket_root", "secant_root",
})
RAW_OPS_PREFIX = "tensorflow.raw_ops."


def _import_tf():
    """Import TensorFlow and Keras (TensorFlow backend) quietly."""
    if "keras" not in sys.modules:
        os.environ["KERAS_BACKEND"] = "tensorflow"
    import tensorflow as tf
    import keras

    tf.get_logger().setLevel("ERROR")
    if keras.backend.backend() != "tensorflow":
        raise RuntimeError(
            "keras was imported with the %r backend; run with "
            "KERAS_BACKEND=tensorflow" % keras.backend.backend())
    return tf, keras


def _tfp():
    """``tensorflow_probability``, or None when not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import tensorflow_probability as tfp
    except ImportError:
        return None
    return tfp


def _keras2_backend():
    """``tf_keras.backend`` (Keras 2's ``K``), or None when not installed."""
    try:
        import tf_keras
    except ImportError:
        return None
    return tf_keras.backend


@dataclass
class Outcome:
    """What happened to one function object."""

    status: str  # "listed", "has_gradient", "outputs", "skipped:<reason>", "disagree:<...>"
    ops: list[str] = field(default_factory=list)
    category: str | None = None
    detail: str = ""
    tape: str | None = None          # "none" or "LookupError" when listed
    args: list[list[str]] = field(default_factory=list)  # [[param, status], ...]
    outputs: dict[str, dict] = field(default_factory=dict)  # field -> entry


class _NotATensor(Exception):
    pass


# ------------------------------------------------------------------ patterns
def _values(shape, second=False):
    size = math.prod(shape)
    if list(shape) == [3, 3]:
        base = SQUARE_VALUES
    elif len(shape) >= 3:  # images: values in [0, 1]
        return [((i * 7 + (3 if second else 0)) % 11) / 10.0 for i in range(size)]
    else:
        base = Y_VALUES if second else X_VALUES
    return [base[i % len(base)] for i in range(size)]


def _index(shape):
    """Sorted int32 indices, one per row of x, in range: [0, 0, 0, 1, 1, 1]."""
    n = shape[0]
    return [i * 2 // n for i in range(n)]


# name, builder of the second argument (tf, shape) -> value, is float (watched)
PATTERNS = (
    ("x", None, False),
    ("same", lambda tf, s: tf.reshape(tf.constant(_values(s, True), tf.float32), s), True),
    ("scalar", lambda tf, s: tf.constant(0.5, tf.float32), True),
    ("range", lambda tf, s: tf.constant(VALUE_RANGE, tf.float32), True),
    ("index", lambda tf, s: tf.constant(_index(s), tf.int32), False),
    ("int", lambda tf, s: 1, False),
    # A count and a seed: ``tf.random.stateless_categorical(logits, 1, seed)``.
    ("int, seed", lambda tf, s: 1, False,
     lambda tf, s: tf.constant([1, 2], tf.int32)),
)


# Parameters that take integers: a float tensor bound to one is not a call
# whose outcome means anything.
_INTEGER_PARAMETERS = frozenset({"indices", "shape", "seed"})


def _bindable(sig, n) -> bool:
    if sig is None:
        return True
    try:
        sig.bind(*range(n))
        return True
    except TypeError:
        return False


def _param_names(sig, n):
    names = []
    if sig is not None:
        for p in sig.parameters.values():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
            elif p.kind == p.VAR_POSITIONAL:
                break
    names += ["arg%d" % i for i in range(len(names), n)]
    return names[:n]


class _Scanner:
    def __init__(self, tf, keras):
        from tensorflow.python.eager import backprop_util
        from tensorflow.python.framework import ops

        self.tf = tf
        self.keras = keras
        self.registry = ops._gradient_registry
        self.is_trainable = backprop_util.IsTrainable
        self.stateful_ok = False

    # ----------------------------------------------------------- candidates
    def namespaces(self):
        tf, keras = self.tf, self.keras
        spaces = [
            ("tensorflow", tf),
            ("tensorflow.math", tf.math),
            ("tensorflow.dtypes", tf.dtypes),
            ("tensorflow.nn", tf.nn),
            ("tensorflow.image", tf.image),
            ("tensorflow.linalg", tf.linalg),
            ("tensorflow.signal", tf.signal),
            ("tensorflow.sets", tf.sets),
            ("tensorflow.sparse", tf.sparse),
            ("keras.ops", keras.ops),
        ]
        for sub in ("numpy", "nn", "image", "linalg"):
            module = getattr(keras.ops, sub, None)
            if inspect.ismodule(module):
                spaces.append(("keras.ops." + sub, module))
        backend = _keras2_backend()
        if backend is not None:
            spaces.append(("keras.backend", backend))
        spaces.append(("tensorflow.random", tf.random))
        if inspect.ismodule(getattr(keras, "random", None)):
            spaces.append(("keras.random", keras.random))
        tfp = _tfp()
        if tfp is not None:
            spaces += [("tensorflow_probability.stats", tfp.stats),
                       ("tensorflow_probability.math", tfp.math)]
        return spaces

    def candidates(self):
        """(qualified name, function) of every candidate, sorted by name."""
        out = {}
        for prefix, module in self.namespaces():
            deny = _RANDOM_DENY_PATTERN if prefix in RANDOM_NAMESPACES \
                else _DENY_PATTERN
            for name in sorted(dir(module)):
                if name.startswith("_") or name in _DENY_NAMES \
                        or deny.search(name):
                    continue
                try:
                    obj = getattr(module, name)
                except Exception:  # noqa: BLE001
                    continue
                if inspect.isclass(obj) or inspect.ismodule(obj) \
                        or not callable(obj):
                    continue
                out.setdefault("%s.%s" % (prefix, name), obj)
        return sorted(out.items())

    # ---------------------------------------------------------- the calls
    def build_args(self, pattern, shape):
        tf = self.tf
        name, second, is_float = pattern[:3]
        x = tf.reshape(tf.constant(_values(shape), tf.float32), shape)
        if second is None:
            return [x], [0]
        third = [pattern[3](tf, shape)] if len(pattern) > 3 else []
        return [x, second(tf, shape)] + third, [0, 1] if is_float else [0]

    def flatten(self, out):
        """[(field, tensor)] of a call's output; raises _NotATensor."""
        tf = self.tf
        if isinstance(out, tf.Tensor):
            return [("", out)]
        if isinstance(out, (tuple, list)) and out \
                and all(isinstance(t, tf.Tensor) for t in out):
            fields = getattr(out, "_fields", None) or \
                [str(i) for i in range(len(out))]
            return list(zip(fields, out))
        raise _NotATensor(type(out).__name__)

    def tape_status(self, func, args, watched, field_index=None) -> str:
        """"none", "gradient" or "LookupError" for args[watched]."""
        tf = self.tf
        with tf.GradientTape() as tape:
            tape.watch(args[watched])
            outs = self.flatten(func(*args))
            if field_index is not None:
                outs = [outs[field_index]]
            loss = tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32))
                             for _, t in outs])
        try:
            grad = tape.gradient(loss, args[watched])
        except LookupError:
            return "LookupError"
        return "none" if grad is None else "gradient"

    # -------------------------------------------------------------- tracing
    def trace(self, func, args, floats):
        """Trace func in a tf.function with the float args as inputs;
        returns (graph, input placeholders, output tensors)."""
        tf = self.tf
        holder = {}

        def wrapper(*inputs):
            call = list(args)
            for i in floats:
                if i not in holder["floats"]:  # a constant: NumPy, not a tensor
                    call[i] = args[i].numpy()
            for i, t in zip(holder["floats"], inputs):
                call[i] = t
            outs = self.flatten(func(*call))
            holder["inputs"], holder["outs"] = inputs, [t for _, t in outs]
            return holder["outs"]

        last_error = None
        # Unknown rank first, then unknown dimension sizes (so that shape
        # functions are not constant-folded away), then the static shape
        # for functions that need it; then the same with only x symbolic and
        # the second argument a NumPy constant (keras.ops.digitize iterates
        # over its bins).
        for symbolic, mode in [(floats, m) for m in ("rank", "dims", "static")] + \
                [(floats[:1], m) for m in ("rank", "dims", "static")
                 if len(floats) > 1]:
            specs = []
            holder["floats"] = symbolic
            for i in symbolic:
                shape = args[i].shape.as_list()
                dims = None if mode == "rank" else \
                    [None] * len(shape) if mode == "dims" else shape
                specs.append(tf.TensorSpec(dims, tf.float32))
            try:
                concrete = tf.function(wrapper, autograph=False) \
                    .get_concrete_function(*specs)
            except _NotATensor:
                raise
            except Exception as exc:  # noqa: BLE001 - anything TF raises
                last_error = exc
                continue
            return concrete.graph, list(holder["inputs"]), holder["outs"]
        raise last_error

    # ----------------------------------------------------- registry check
    def registry_walk(self, graph, inputs, out, value_edges=True):
        """Returns (out_gets_gradient, blocking_op_types, depends_on_input,
        op types on the value path from the input to the output).

        Forward pass: the tensors that carry the input's gradient.  An op
        whose carrying inputs get no gradient from the registry is a
        *blocking* op.  Backward pass: the tensors the output's value flows
        from ("value" edges: an input is not a value input of a
        differentiable op when its gradient function returns None for it,
        e.g. the condition of Select or the ``k`` of TopKV2).  The reported
        ops are the blocking ops on value edges (on every data edge when
        ``value_edges`` is false).
        """
        ops_list = graph.get_operations()
        input_ids = {id(t) for t in inputs}

        # Forward reachability from the inputs (data edges only).
        fwd = set(input_ids)
        for op in ops_list:
            if any(id(t) in fwd for t in op.inputs):
                fwd.update(id(t) for t in op.outputs)
        if id(out) not in fwd:
            return False, [], False, set()

        grads_cache = self._grads_cache.setdefault(id(graph), {})
        with graph.as_default():
            # Backward pass from the output along value edges.
            value = {id(out)}
            for op in reversed(ops_list):
                if not any(id(t) in value for t in op.outputs):
                    continue
                flags = self.input_gradients(op, grads_cache)
                for i, t in enumerate(op.inputs):
                    if not value_edges or flags is None or not any(flags) \
                            or flags[i]:
                        value.add(id(t))
            on_path = fwd & value

            # Forward pass: which tensors carry the input's gradient.
            carrying = set(input_ids)
            blocking = set()
            for op in ops_list:
                grad_inputs = [i for i, t in enumerate(op.inputs)
                               if id(t) in carrying]
                path_outputs = [o for o in op.outputs if id(o) in on_path]
                if not grad_inputs or not path_outputs:
                    continue
                flags = self.input_gradients(op, grads_cache)
                passes = (flags is not None
                          and any(self.is_trainable(o) for o in path_outputs)
                          and any(flags[i] for i in grad_inputs))
                if passes:
                    carrying.update(id(o) for o in path_outputs
                                    if self.is_trainable(o))
                else:
                    blocking.add(op.type)
        # Ops that only read the input's shape are reported only when nothing
        # else stops the gradient.
        if blocking - SHAPE_ONLY_OPS:
            blocking -= SHAPE_ONLY_OPS
        path_ops = {op.type for op in ops_list
                    if any(id(o) in on_path for o in op.outputs)}
        return id(out) in carrying, sorted(blocking), True, path_ops

    def input_gradients(self, op, cache):
        """Per input of op: does its registered gradient function return a
        gradient for it?  None when no gradient flows through op at all
        (not-differentiable entry, no entry, or only int/bool outputs)."""
        if op.name in cache:
            return cache[op.name]
        flags = None
        if any(self.is_trainable(o) for o in op.outputs):
            try:
                grad_fn = self.registry.lookup(op.type)
            except LookupError:
                grad_fn = None
            if grad_fn is not None:
                try:
                    out_grads = [self.tf.ones_like(o) if self.is_trainable(o)
                                 else None for o in op.outputs]
                    grads = grad_fn(op, *out_grads)
                except Exception:  # noqa: BLE001 - cannot tell: assume yes
                    grads = [True] * len(op.inputs)
                if not isinstance(grads, (list, tuple)):
                    grads = [grads]
                grads = list(grads) + [None] * (len(op.inputs) - len(grads))
                flags = [g is not None for g in grads[:len(op.inputs)]]
        cache[op.name] = flags
        return flags

    # ------------------------------------------------------------ analyze
    def analyze(self, func) -> Outcome:
        """The first argument pattern and shape func accepts decides."""
        try:
            sig = inspect.signature(func)
        except (TypeError, ValueError):
            sig = None
        last = Outcome("skipped:cannot call")
        for pattern in PATTERNS:
            nargs = 1 if pattern[1] is None else len(pattern) - 1
            if not _bindable(sig, nargs):
                continue
            for shape in SHAPES:
                args, floats = self.build_args(pattern, shape)
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        out = func(*args)
                except Exception as exc:  # noqa: BLE001 - cannot be called so
                    last = Outcome("skipped:cannot call", detail=repr(exc)[:200])
                    continue
                try:
                    fields = self.flatten(out)
                except _NotATensor as exc:
                    return Outcome("skipped:not a tensor", detail=str(exc))
                names = _param_names(sig, nargs)
                if any(names[i] in _INTEGER_PARAMETERS for i in floats):
                    # It accepted a float where it means integers
                    # (keras.ops.unravel_index(indices, shape)): the outcome
                    # says nothing about real calls; try the next pattern.
                    last = Outcome("skipped:float for an integer parameter")
                    break
                return self.analyze_call(func, args, floats, fields, names,
                                         pattern[0])
        return last

    def analyze_call(self, func, args, floats, fields, names, pattern):
        tf = self.tf
        if any(t.dtype == tf.string for _, t in fields):
            return Outcome("skipped:not numeric")
        try:
            graph, inputs, outs = self.trace(func, args, floats)
        except _NotATensor:
            return Outcome("skipped:not a tensor")
        except Exception as exc:  # noqa: BLE001
            return Outcome("skipped:cannot trace", detail=repr(exc)[:200])
        if not self.stateful_ok and any(
                op.op_def is not None and op.op_def.is_stateful
                for op in graph.get_operations()):
            return Outcome("skipped:stateful")
        self._grads_cache = {}
        try:
            statuses = [self.tape_status(func, args, i) for i in floats]
        except Exception as exc:  # noqa: BLE001
            return Outcome("skipped:error", detail=repr(exc)[:200])
        arg_entries = []
        for i, name in enumerate(names):
            kind = statuses[floats.index(i)] if i in floats else \
                "int tensor" if pattern == "index" or i == 2 else "python int"
            arg_entries.append([name, kind])

        # The whole call, with respect to the first argument.
        walks = [self.registry_walk(graph, inputs[:1], o) for o in outs]
        if not any(w[2] for w in walks):
            return Outcome("skipped:constant")
        if statuses[0] != "gradient" and not any(w[0] or w[1] for w in walks):
            # Nothing stops the gradient on the value path: x reaches the
            # output only through inputs whose gradient the consumer never
            # computes (the indices of ScatterNd, the dims of Fill).
            walks = [self.registry_walk(graph, inputs[:1], o, False)
                     for o in outs]
        gets_grad = any(w[0] for w in walks)
        blocking = sorted({op for w in walks for op in w[1]})
        path_ops = {op for w in walks for op in w[3]}
        status = statuses[0]
        if status == "gradient" and gets_grad:
            if len(fields) == 1:
                return Outcome("has_gradient", args=arg_entries)
            return self.analyze_outputs(func, args, fields, walks,
                                        arg_entries, graph, inputs, outs)
        if (status == "gradient") == (not gets_grad) or not blocking:
            return Outcome("disagree:tape %s, registry %s" % (
                status, "gradient" if gets_grad else "None"), blocking,
                args=arg_entries)
        # Category from the outputs that depend on the input.
        dtypes = {o.dtype for o, w in zip(outs, walks) if w[2]}
        return Outcome("listed", blocking,
                       self.category(dtypes, blocking, path_ops),
                       tape=status, args=arg_entries)

    def analyze_outputs(self, func, args, fields, walks, arg_entries,
                        graph, inputs, outs):
        """Tuple outputs of a call that has a gradient: the fields without."""
        outputs = {}
        for k, ((name, t), (gets_grad, blocking, depends, path_ops)) in \
                enumerate(zip(fields, walks)):
            if not depends or gets_grad:
                continue
            if not blocking:  # see analyze_call
                _, blocking, _, path_ops = self.registry_walk(
                    graph, inputs[:1], outs[k], False)
            if not blocking:
                continue
            try:
                status = self.tape_status(func, args, 0, field_index=k)
            except Exception:  # noqa: BLE001
                continue
            if status == "gradient":
                continue
            outputs[name] = {"ops": blocking, "tape": status, "position": k,
                             "category": self.category({t.dtype}, blocking,
                                                       path_ops)}
        if not outputs:
            return Outcome("has_gradient", args=arg_entries)
        return Outcome("outputs", args=arg_entries, outputs=outputs)

    def category(self, dtypes, blocking, path_ops) -> str:
        blocking = set(blocking)
        if dtypes == {self.tf.bool}:
            return "comparison"
        if blocking <= ROUNDING_OPS:
            return "rounding"
        if any(d.is_floating or d.is_complex for d in dtypes):
            # A float result without gradient is a value, not an index
            # (`y` of `tf.unique`, the counts of `tfp.stats.histogram`).
            return "other"
        if blocking & INDEX_OPS:
            return "index"
        if blocking == {"Cast"} and path_ops & INDEX_OPS:
            # The function casts x to an integer first, then computes
            # indices from it (keras.ops.nonzero, argpartition, where(x)).
            return "index"
        return "other"

    # --------------------------------------------------------------- scan
    def scan(self, only=None):
        """Returns {qualified name: Outcome} for every candidate name (or for
        the names in ``only``)."""
        results: dict[str, Outcome] = {}
        cache: dict[int, Outcome] = {}
        keep_alive = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for qualname, obj in self.candidates():
                if only is not None and qualname not in only:
                    continue
                self.stateful_ok = qualname.rsplit(".", 1)[0] in RANDOM_NAMESPACES
                key = (id(obj), self.stateful_ok)
                if key not in cache:
                    keep_alive.append(obj)
                    cache[key] = self.analyze(obj)
                results[qualname] = cache[key]
            results.update(self.raw_ops(only))
        return results

    # ------------------------------------------------------------ raw ops
    def raw_op_names(self):
        return [RAW_OPS_PREFIX + name for name in sorted(dir(self.tf.raw_ops))
                if not name.startswith("_")]

    def raw_ops(self, only=None):
        """``tf.raw_ops.X(**inputs)``: read from the op registry, not called.

        Raw ops take keyword-only arguments and ~1,500 of them need inputs of
        exact types and attributes, so they are not called: the op's OpDef
        and TensorFlow's gradient registry decide.  An op is listed when the
        registry has no gradient for it -- ``tf.no_gradient``/
        ``NotDifferentiable`` (registered ``None``: ``tape`` "none") or no
        entry at all (``tape`` "LookupError" when an output can be float, as
        ``tape.gradient`` then raises; "none" when every output is an
        integer/bool/string, whose gradient the tape never asks for) -- and it
        has an input that can be float and a numeric output (not only resources,
        variants or strings: no dataset or variable op).  Ops that call a
        function attribute (``PartitionedCall``, ``For``: their gradient is
        the function's) or take ref inputs (TF1 graphs only) are skipped.
        An op with a
        gradient function is listed only when none of its outputs can be float
        (``ArgMax``, ``ArgMin``: the tape never asks for it); the others are
        not, even those whose function returns ``None`` for float inputs
        (``Round``): telling that from a dtype-dependent ``None`` (``Cast`` to
        an integer) needs an op instance (the public functions that use them
        are listed).
        """
        from tensorflow.python.framework import op_def_registry

        results = {}
        for qualname in self.raw_op_names():
            if only is not None and qualname not in only:
                continue
            op_type = qualname[len(RAW_OPS_PREFIX):]
            op_def = op_def_registry.get(op_type)
            if op_def is None:
                results[qualname] = Outcome("skipped:no op def")
                continue
            try:
                grad_fn = self.registry.lookup(op_type)
            except LookupError:
                grad_fn, registered = None, False
            else:
                registered = True
            if any(attr.type in ("func", "list(func)") for attr in op_def.attr) \
                    or any(arg.is_ref for arg in op_def.input_arg):
                # Function-calling ops (PartitionedCall, For, Batch...): the
                # tape differentiates the called function, not a registry
                # entry; ref inputs (Assign, ApplyAdam): TF1 graphs only.
                results[qualname] = Outcome("skipped:calls a function or takes a ref")
                continue
            inputs = [(arg.name, self._arg_dtypes(op_def, arg))
                      for arg in op_def.input_arg]
            outputs = [self._arg_dtypes(op_def, arg) for arg in op_def.output_arg]
            if not any(self._can_be_numeric(d) for d in outputs) \
                    or not any(self._can_be_float(d) for _, d in inputs):
                # Nothing a loss can be computed from (no output, or only
                # resources, variants, strings: datasets, variables), or
                # no input a gradient can come in by.
                results[qualname] = Outcome("skipped:no float input or no numeric output")
                continue
            float_out = any(self._can_be_float(d) for d in outputs)
            if grad_fn is not None and float_out:
                results[qualname] = Outcome("has_gradient")
                continue
            # No gradient function, or one on an op whose outputs are never
            # float (ArgMax, ArgMin): the tape has nothing to differentiate.
            tape = "LookupError" if not registered and float_out else "none"
            if all(d == {self.tf.bool} for d in outputs):
                category = "comparison"
            elif op_type in ROUNDING_OPS:
                category = "rounding"
            elif op_type in INDEX_OPS and not float_out:
                category = "index"
            else:
                category = "other"
            args = [[name, tape if self._can_be_float(d) else "not float"]
                    for name, d in inputs]
            results[qualname] = Outcome("listed", [op_type], category,
                                        tape=tape, args=args)
        return results

    def _arg_dtypes(self, op_def, arg):
        """The dtypes an OpDef argument may have (None: any)."""
        tf = self.tf
        if arg.type:
            return {tf.dtypes.as_dtype(arg.type)}
        attr_name = arg.type_attr or arg.type_list_attr
        if not attr_name:
            return set()
        for attr in op_def.attr:
            if attr.name == attr_name:
                allowed = attr.allowed_values.list.type
                return {tf.dtypes.as_dtype(t) for t in allowed} if allowed else None
        return None

    def _can_be_numeric(self, dtypes) -> bool:
        tf = self.tf
        return dtypes is None or any(
            d not in (tf.resource, tf.variant, tf.string) for d in dtypes)

    def _can_be_float(self, dtypes) -> bool:
        return dtypes is None or any(
            (d.is_floating or d.is_complex) and not d.is_quantized
            for d in dtypes)


def scan(only=None):
    """Full scan: (tf, keras, {qualified name: Outcome})."""
    tf, keras = _import_tf()
    return tf, keras, _Scanner(tf, keras).scan(only)


def candidate_names() -> list[str]:
    """Every qualified name the scan considers, sorted."""
    tf, keras = _import_tf()
    scanner = _Scanner(tf, keras)
    return sorted([name for name, _ in scanner.candidates()]
                  + scanner.raw_op_names())


def registry_entry(op_type: str) -> str:
    """How TensorFlow's gradient registry describes op_type."""
    from tensorflow.python.framework import ops

    try:
        grad_fn = ops._gradient_registry.lookup(op_type)
    except LookupError:
        return "no entry"
    if grad_fn is None:
        return "not differentiable (registered None)"
    return "gradient function %s" % getattr(grad_fn, "__name__", grad_fn)


def _versions(tf, keras) -> dict:
    versions = {"tensorflow": tf.__version__, "keras": keras.__version__}
    tfp = _tfp()
    if tfp is not None:
        versions["tensorflow_probability"] = tfp.__version__
    backend = _keras2_backend()
    if backend is not None:
        import tf_keras
        versions["tf_keras"] = tf_keras.__version__
    return versions


def _to_data(tf, keras, results) -> dict:
    functions = {
        name: {"ops": o.ops, "category": o.category, "tape": o.tape,
               "args": o.args}
        for name, o in sorted(results.items()) if o.status == "listed"
    }
    outputs = {
        name: o.outputs
        for name, o in sorted(results.items()) if o.status == "outputs"
    }
    return {
        **_versions(tf, keras),
        "generated_by": GENERATED_BY,
        "functions": functions,
        "outputs": outputs,
    }


def generate(only=None) -> dict:
    """The no-gradient data for the installed TensorFlow/Keras (restricted
    to the qualified names in ``only`` when given)."""
    tf, keras, results = scan(only)
    return _to_data(tf, keras, results)


def dumps(data: dict) -> str:
    return json.dumps(data, sort_keys=True, indent=1) + "\n"


def main() -> None:
    start = time.perf_counter()
    tf, keras, results = scan()
    elapsed = time.perf_counter() - start
    data = _to_data(tf, keras, results)
    OUTPUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT_PATH.write_text(dumps(data), encoding="utf-8")

    functions = data["functions"]
    tried = [n for n, o in results.items()
             if not o.status.startswith("skipped")]
    print("TensorFlow %s, Keras %s: %d names considered, %d callable with "
          "float tensor(s), %d listed (%d raise LookupError), %d with "
          "outputs without gradient, in %.1f s"
          % (tf.__version__, keras.__version__, len(results), len(tried),
             len(functions),
             sum(e["tape"] == "LookupError" for e in functions.values()),
             len(data["outputs"]), elapsed))
    counts: dict[str, int] = {}
    for entry in functions.values():
        counts[entry["category"]] = counts.get(entry["category"], 0) + 1
    for category in sorted(counts):
        print("  %-11s %d" % (category, counts[category]))
    statuses: dict[str, int] = {}
    for o in results.values():
        statuses[o.status] = statuses.get(o.status, 0) + 1
    print("Outcomes: %s" % ", ".join("%s %d" % kv for kv in sorted(statuses.items())))
    disagreements = sorted((n, o) for n, o in results.items()
                           if o.status.startswith("disagree"))
    if disagreements:
        print("Not listed, registry and tape disagree:")
        for name, outcome in disagreements:
            print("  %s: %s %s %s" % (name, outcome.status[9:], outcome.ops,
                                      outcome.detail))
    op_types = sorted({op for entry in functions.values()
                       for op in entry["ops"]})
    print("Gradient registry entries of the listed ops:")
    for op_type in op_types:
        print("  %-20s %s" % (op_type, registry_entry(op_type)))
    print("Wrote %s" % OUTPUT_PATH.relative_to(REPO_ROOT))


if __name__ == "__main__":
    main()
