"""Generate ``rules/model/data/no_gradient_ops.json`` from the installed TensorFlow.

The data says which public TensorFlow (and ``keras.ops``) functions give *no*
gradient (``None``) with respect to their float input, so that gradguard can
flag a loss computed through them.  Nothing in the data is written by hand:
every entry comes out of TensorFlow itself, by two independent checks that
must agree.

Method
------
1. Enumerate the public callables of ``tf``, ``tf.math``, ``tf.dtypes``,
   ``tf.nn`` and ``keras.ops`` (TensorFlow backend).  Classes, modules, names
   on a short deny list (functions that mutate global state, print, load
   libraries, or are random) are skipped.  A function is a candidate when

   * it can be called with one float32 tensor (its signature binds one
     positional argument; shape ``[6]`` is tried, then ``[2, 3]``), or
   * it needs exactly two arguments and is a plain binary elementwise op:
     it accepts two float32 tensors and broadcasts them both ways
     (``f([2,3], [3])`` and ``f([3], [2,3])`` both give shape ``[2, 3]``).

   Anything that raises, does not return a single ``tf.Tensor`` (tuples,
   ``TopK`` results, Python values, NumPy arrays), or whose traced graph
   contains a stateful op (random, print, ...) is skipped.

2. Registry check.  The function is traced with ``tf.function`` (inputs of
   unknown rank, else unknown dimension sizes, else the static shape; so
   that shape functions are not constant-folded) and the graph from the
   input placeholder(s) to the output is walked in topological order.
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
   functional op itself is reported.

3. Tape check.  ``tf.GradientTape`` watches the (eager) input(s); the
   gradient of ``reduce_sum(cast(f(x), float32))`` must be ``None`` for every
   input.  A zero gradient (``tf.sign``) is a gradient and is not listed.
   When the tape *raises* ``LookupError`` (an op on a float path has no
   registry entry at all, e.g. ``tf.truncatemod``, ``keras.ops.unique``),
   training fails loudly rather than silently: such functions are not
   listed, only reported by ``main()``.

A function is listed only when both checks say "no gradient" and the output
depends on the input, i.e. the traced output is reachable from the input
placeholder.  Choice documented here: *shape-only* functions (``tf.shape``,
``tf.size``, ``tf.rank``, ``tf.zeros_like``, ``tf.ones_like``...) do depend
on the input (its shape) and a loss computed from them really gets no
gradient, so they ARE listed, under category ``"other"``.  Functions whose
output is a constant independent of the input are not listed (the tape alone
cannot tell them apart from ``tf.stop_gradient``-like functions).

Categories
----------
``comparison``  the function returns ``bool`` (equal, greater, is_nan, ...).
``rounding``    every op that stops the gradient is Round/Floor/Ceil/Rint.
``index``       an op that stops the gradient returns indices
                (ArgMax, ArgMin, TopKV2 indices, Where, searchsorted...).
``cast``        the only op that stops the gradient is a float->int ``Cast``
                (none with TF 2.21 / Keras 3.15: such casts either return
                bool, or come with another blocking op).  ``tf.cast`` itself
                is never listed: it needs a dtype and its gradient depends
                on it.
``other``       everything else (shape/size/rank, stop_gradient, floordiv,
                count_nonzero, ...).

Run ``python scripts/generate_no_gradient_ops.py`` after upgrading TensorFlow
or Keras; ``tests/test_no_gradient_data.py`` fails when the shipped JSON is
out of date.
"""

from __future__ import annotations

import inspect
import json
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
SHAPES = ([6], [2, 3])

ROUNDING_OPS = frozenset({"Round", "Floor", "Ceil", "Rint"})
INDEX_OPS = frozenset({
    "ArgMax", "ArgMin", "TopKV2", "Where", "Unique", "UniqueV2",
    "UniqueWithCounts", "UniqueWithCountsV2", "LowerBound", "UpperBound",
    "Bucketize", "InTopKV2",
})
SHAPE_ONLY_OPS = frozenset({"Shape", "ShapeN", "Size", "Rank"})

# Names never called: they mutate TF's global state (gradient registry,
# conversion registry), load libraries, print, or wrap Python callables.
_DENY_NAMES = frozenset({
    "no_gradient", "NotDifferentiable", "NoGradient", "RegisterGradient",
    "custom_gradient", "recompute_grad", "grad_pass_through",
    "register_tensor_conversion_function", "load_library", "load_op_library",
    "print", "Assert", "py_function", "numpy_function", "function",
    "init_scope", "device", "control_dependencies", "timestamp",
})
# Random or stochastic functions ("skip anything random"); stateful ops are
# additionally rejected after tracing.
_DENY_PATTERN = re.compile(r"random|dropout|shuffle|sample", re.IGNORECASE)


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


@dataclass
class Outcome:
    """What happened to one (function object, arity) candidate."""

    status: str  # "listed", "has_gradient", "skipped:<reason>", "disagree:<...>"
    ops: list[str] = field(default_factory=list)
    category: str | None = None
    detail: str = ""


class _NotATensor(Exception):
    pass


class _Scanner:
    def __init__(self, tf, keras):
        from tensorflow.python.eager import backprop_util
        from tensorflow.python.framework import ops

        self.tf = tf
        self.keras = keras
        self.registry = ops._gradient_registry
        self.is_trainable = backprop_util.IsTrainable

    # ----------------------------------------------------------- candidates
    def namespaces(self):
        tf = self.tf
        return [
            ("tensorflow", tf),
            ("tensorflow.math", tf.math),
            ("tensorflow.dtypes", tf.dtypes),
            ("tensorflow.nn", tf.nn),
            ("keras.ops", self.keras.ops),
        ]

    @staticmethod
    def arity(func) -> int | None:
        """1 if callable with one tensor, 2 if it needs exactly two."""
        try:
            sig = inspect.signature(func)
        except (TypeError, ValueError):
            return 1
        try:
            sig.bind(0)
            return 1
        except TypeError:
            pass
        try:
            sig.bind(0, 0)
            return 2
        except TypeError:
            return None

    # -------------------------------------------------------------- tracing
    def trace(self, func, shape, arity):
        """Trace func in a tf.function; returns (graph, inputs, output)."""
        tf = self.tf
        holder = {}

        def wrapper(*args):
            out = func(*args)
            if not isinstance(out, tf.Tensor):
                raise _NotATensor(type(out).__name__)
            holder["inputs"], holder["out"] = args, out
            return out

        last_error = None
        # Unknown rank first, then unknown dimension sizes (so that shape
        # functions are not constant-folded away), then the static shape
        # for functions that need it.
        for dims in (None, [None] * len(shape), shape):
            specs = [tf.TensorSpec(dims, tf.float32)] * arity
            try:
                concrete = tf.function(wrapper, autograph=False) \
                    .get_concrete_function(*specs)
            except _NotATensor:
                raise
            except Exception as exc:  # noqa: BLE001 - anything TF raises
                last_error = exc
                continue
            return concrete.graph, list(holder["inputs"]), holder["out"]
        raise last_error

    # ----------------------------------------------------- registry check
    def registry_walk(self, graph, inputs, out):
        """Returns (out_gets_gradient, blocking_op_types, depends_on_input).

        Forward pass: the tensors that carry the input's gradient.  An op
        whose carrying inputs get no gradient from the registry is a
        *blocking* op.  Backward pass: the tensors the output's value flows
        from ("value" edges: an input is not a value input of a
        differentiable op when its gradient function returns None for it,
        e.g. the condition of Select or the ``k`` of TopKV2).  The reported
        ops are the blocking ops on value edges.
        """
        ops_list = graph.get_operations()
        input_ids = {id(t) for t in inputs}

        # Forward reachability from the inputs (data edges only).
        fwd = set(input_ids)
        for op in ops_list:
            if any(id(t) in fwd for t in op.inputs):
                fwd.update(id(t) for t in op.outputs)
        if id(out) not in fwd:
            return False, [], False

        grads_cache: dict[str, list[bool] | None] = {}
        with graph.as_default():
            # Backward pass from the output along value edges.
            value = {id(out)}
            for op in reversed(ops_list):
                if not any(id(t) in value for t in op.outputs):
                    continue
                flags = self.input_gradients(op, grads_cache)
                for i, t in enumerate(op.inputs):
                    if flags is None or not any(flags) or flags[i]:
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
        return id(out) in carrying, sorted(blocking), True

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
                out_grads = [self.tf.ones_like(o) if self.is_trainable(o)
                             else None for o in op.outputs]
                try:
                    grads = grad_fn(op, *out_grads)
                except Exception:  # noqa: BLE001 - cannot tell: assume yes
                    grads = [True] * len(op.inputs)
                if not isinstance(grads, (list, tuple)):
                    grads = [grads]
                grads = list(grads) + [None] * (len(op.inputs) - len(grads))
                flags = [g is not None for g in grads[:len(op.inputs)]]
        cache[op.name] = flags
        return flags

    # --------------------------------------------------------- tape check
    def tape_says_none(self, func, shape, arity) -> bool:
        tf = self.tf
        xs = [tf.reshape(tf.constant(v, tf.float32), shape)
              for v in (X_VALUES, Y_VALUES)[:arity]]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = func(*xs)
            if not isinstance(y, tf.Tensor):
                raise _NotATensor(type(y).__name__)
            loss = tf.reduce_sum(tf.cast(y, tf.float32))
        grads = tape.gradient(loss, xs)
        return all(g is None for g in grads)

    def is_elementwise_binary(self, func) -> bool:
        tf = self.tf
        a = tf.constant([X_VALUES[:3], X_VALUES[3:]], tf.float32)
        b = tf.constant(Y_VALUES[:3], tf.float32)
        for args in ((a, b), (b, a)):
            out = func(*args)
            if not isinstance(out, tf.Tensor) or out.shape != (2, 3):
                return False
        return True

    # ------------------------------------------------------------ analyze
    def analyze(self, func, arity) -> Outcome:
        tf = self.tf
        if arity == 2:
            try:
                if not self.is_elementwise_binary(func):
                    return Outcome("skipped:not elementwise")
            except Exception:  # noqa: BLE001
                return Outcome("skipped:not elementwise")
        outcome = Outcome("skipped:error")
        for shape in SHAPES:
            outcome = self.analyze_at(func, arity, shape)
            if outcome.status != "skipped:error":
                break
        return outcome

    def analyze_at(self, func, arity, shape) -> Outcome:
        tf = self.tf
        try:
            graph, inputs, out = self.trace(func, shape, arity)
        except _NotATensor:
            return Outcome("skipped:not a tensor")
        except Exception as exc:  # noqa: BLE001
            return Outcome("skipped:error", detail=repr(exc)[:200])
        if any(op.op_def is not None and op.op_def.is_stateful
               for op in graph.get_operations()):
            return Outcome("skipped:stateful")
        if out.dtype == tf.string:
            return Outcome("skipped:not numeric")
        gets_grad, blocking, depends = self.registry_walk(graph, inputs, out)
        if not depends:
            return Outcome("skipped:constant")
        try:
            tape_none = self.tape_says_none(func, shape, arity)
        except _NotATensor:
            return Outcome("skipped:not a tensor")
        except LookupError as exc:
            return Outcome("disagree:tape raised LookupError", blocking,
                           detail=str(exc).splitlines()[0])
        except Exception as exc:  # noqa: BLE001
            return Outcome("skipped:error", detail=repr(exc)[:200])
        if not tape_none and gets_grad:
            return Outcome("has_gradient")
        if tape_none != (not gets_grad) or not blocking:
            return Outcome("disagree:tape %s, registry %s" % (
                "None" if tape_none else "gradient",
                "gradient" if gets_grad else "None"), blocking)
        return Outcome("listed", blocking, self.category(out, blocking))

    def category(self, out, blocking) -> str:
        blocking = set(blocking)
        if out.dtype == self.tf.bool:
            return "comparison"
        if blocking <= ROUNDING_OPS:
            return "rounding"
        if blocking & INDEX_OPS:
            return "index"
        if blocking == {"Cast"}:
            return "cast"
        return "other"

    # --------------------------------------------------------------- scan
    def scan(self):
        """Returns {qualified name: Outcome} for every candidate name."""
        results: dict[str, Outcome] = {}
        cache: dict[int, Outcome] = {}
        keep_alive = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for prefix, module in self.namespaces():
                for name in sorted(dir(module)):
                    if name.startswith("_") or name in _DENY_NAMES \
                            or _DENY_PATTERN.search(name):
                        continue
                    try:
                        obj = getattr(module, name)
                    except Exception:  # noqa: BLE001
                        continue
                    if inspect.isclass(obj) or inspect.ismodule(obj) \
                            or not callable(obj):
                        continue
                    arity = self.arity(obj)
                    if arity is None:
                        continue
                    if id(obj) not in cache:
                        keep_alive.append(obj)
                        cache[id(obj)] = self.analyze(obj, arity)
                    results["%s.%s" % (prefix, name)] = cache[id(obj)]
        return results


def scan():
    """Full scan: (tf, keras, {qualified name: Outcome})."""
    tf, keras = _import_tf()
    return tf, keras, _Scanner(tf, keras).scan()


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


def _to_data(tf, keras, results) -> dict:
    functions = {
        name: {"ops": outcome.ops, "category": outcome.category}
        for name, outcome in sorted(results.items())
        if outcome.status == "listed"
    }
    return {
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "generated_by": GENERATED_BY,
        "functions": functions,
    }


def generate() -> dict:
    """The no-gradient data for the installed TensorFlow/Keras."""
    tf, keras, results = scan()
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
          "float tensor(s), %d listed, in %.1f s"
          % (tf.__version__, keras.__version__, len(results), len(tried),
             len(functions), elapsed))
    counts: dict[str, int] = {}
    for entry in functions.values():
        counts[entry["category"]] = counts.get(entry["category"], 0) + 1
    for category in sorted(counts):
        print("  %-11s %d" % (category, counts[category]))
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
        print("  %-16s %s" % (op_type, registry_entry(op_type)))
    print("Wrote %s" % OUTPUT_PATH.relative_to(REPO_ROOT))


if __name__ == "__main__":
    main()
