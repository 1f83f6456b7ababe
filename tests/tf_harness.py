"""Run a test program inside this process and report what TensorFlow did with its gradients.

Not a test module: tests import it. TensorFlow is imported once (when this module is imported);
each program is then executed with `exec` in a fresh `__main__` module namespace, after
`keras.backend.clear_session()` and fixed seeds, while `tf.GradientTape.gradient` and
`tf.GradientTape.jacobian` are patched to record what they return. The source is registered in
`linecache` under the program's filename for the run, so `inspect.getsource` finds it as it would
for a script on disk and AutoGraph converts the program's `tf.function`s (a `for batch in dataset`
loop becomes a graph while loop instead of running forever over symbolic elements).

Recording: every outermost call (calls made by TensorFlow from inside another recorded call, such
as the per-row gradients of `jacobian`, are not recorded separately) appends one list: the
returned structure flattened with `tf.nest.flatten`, each element `None` or a numpy array.
Calls made while tracing a `tf.function` (e.g. Keras `fit` without `run_eagerly=True`) return
symbolic tensors: the None pattern is known at trace time, and the values are collected by a
`tf.py_function` side effect each time the traced function runs, so a traced step is recorded
once per execution, exactly like an eager one.
"""
from __future__ import annotations

import builtins
import linecache
import logging
import os
import random
import threading
import types
import warnings
from dataclasses import dataclass, field
from typing import Any

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")  # quieter, and bit-for-bit repeatable
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import numpy as np  # noqa: E402

try:  # absl is a TensorFlow dependency; silence it before TensorFlow logs anything
    from absl import logging as _absl_logging

    _absl_logging.set_verbosity(_absl_logging.ERROR)
    _absl_logging.set_stderrthreshold("error")
except ImportError:  # pragma: no cover
    _absl_logging = None

import tensorflow as tf  # noqa: E402

tf.get_logger().setLevel(logging.ERROR)
tf.autograph.set_verbosity(0)
try:
    import keras  # noqa: E402
except ImportError:  # pragma: no cover
    keras = tf.keras
logging.getLogger("keras").setLevel(logging.ERROR)

SEED = 1234

__all__ = [
    "Outcome",
    "run_program",
    "notebook_source",
    "notebook_position",
    "parse_header",
    "matches",
    "differs",
]


# --------------------------------------------------------------------------------------------
# Outcome


@dataclass
class Outcome:
    """What one run did: every recorded gradient call, and the exception that ended it (if any)."""

    gradients: list[list[np.ndarray | None]] = field(default_factory=list)
    error: BaseException | None = None
    # For each recorded call, whether it returned a list or tuple (`tape.gradient(loss, [v])`)
    # rather than one tensor or None (`tape.gradient(loss, v)`): what an `if grads:` tests.
    returned_list: list[bool] = field(default_factory=list)
    # The program's globals after the run (the oracle reads how many variables each source holds).
    namespace: dict | None = field(default=None, repr=False, compare=False)

    @property
    def no_gradient(self) -> bool:
        """Some recorded gradient is None, or TensorFlow/Keras raised "No gradients provided"."""
        if any(g is None for call in self.gradients for g in call):
            return True
        return self.error is not None and "No gradients provided" in str(self.error)

    @property
    def ok(self) -> bool:
        """No exception, at least one gradient call, and no None in any of them."""
        return (
            self.error is None
            and bool(self.gradients)
            and all(g is not None for call in self.gradients for g in call)
        )

    def raised(self, name: str) -> bool:
        """The run ended with an exception of class `name` (or a subclass of it)."""
        if self.error is None:
            return False
        return any(cls.__name__ == name for cls in type(self.error).__mro__)

    def describe(self) -> str:
        """One line for assertion messages."""
        calls = [
            "[" + ", ".join("None" if g is None else "x".join(map(str, g.shape)) or "()" for g in call) + "]"
            for call in self.gradients
        ]
        err = "" if self.error is None else f" error={type(self.error).__name__}: {str(self.error)[:200]}"
        return f"Outcome(calls={len(self.gradients)} {' '.join(calls)[:300]}{err})"


def _gradient_error(error: BaseException) -> bool:
    """The exception is the consequence of a missing gradient (not some unrelated crash)."""
    text = str(error)
    return "No gradients provided" in text or "NoneType" in text


def matches(outcome: Outcome, expectation: str) -> bool:
    """Does `outcome` satisfy a header's `tensorflow:` / `fixed:` value?

    none                 some gradient is None or "No gradients provided" was raised (an exception,
                         if any, must be that consequence of the missing gradient, e.g. a
                         TypeError about NoneType in a manual update, not an unrelated crash)
    ok                   Outcome.ok
    raises X             the run raised X (class name, subclasses included)
    """
    words = expectation.split()
    if not words:
        raise ValueError("empty expectation")
    if words[0] == "none" and len(words) == 1:
        return outcome.no_gradient and (outcome.error is None or _gradient_error(outcome.error))
    if words[0] == "ok" and len(words) == 1:
        return outcome.ok
    if words[0] == "raises" and len(words) == 2:
        return outcome.raised(words[1])
    raise ValueError(f"unknown expectation {expectation!r}")


def differs(a: Outcome, b: Outcome, *, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """The two runs' recorded gradients differ (number of calls, shapes, None pattern or values)."""
    if len(a.gradients) != len(b.gradients):
        return True
    for call_a, call_b in zip(a.gradients, b.gradients):
        if len(call_a) != len(call_b):
            return True
        for ga, gb in zip(call_a, call_b):
            if (ga is None) != (gb is None):
                return True
            if ga is None:
                continue
            if ga.shape != gb.shape or not np.allclose(ga, gb, rtol=rtol, atol=atol, equal_nan=True):
                return True
    return False


# --------------------------------------------------------------------------------------------
# Sources: headers and notebooks (TensorFlow-free, in program_headers.py; re-exported here)

from program_headers import notebook_position, notebook_source, parse_header  # noqa: E402


# --------------------------------------------------------------------------------------------
# Running a program


_GradientTape = tf.GradientTape
_local = threading.local()


def _to_numpy(value: Any) -> np.ndarray:
    if isinstance(value, tf.IndexedSlices):
        value = tf.convert_to_tensor(value)
    if hasattr(value, "numpy"):
        return np.array(value.numpy())
    return np.array(value)


def _is_symbolic(value: Any) -> bool:
    if isinstance(value, tf.IndexedSlices):
        value = value.values
    return tf.is_symbolic_tensor(value) if isinstance(value, tf.Tensor) else False


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[list[np.ndarray | None]] = []
        self.returned_list: list[bool] = []

    def record(self, result: Any) -> None:
        self.returned_list.append(isinstance(result, (list, tuple)))
        flat = tf.nest.flatten(result)
        if not any(_is_symbolic(v) for v in flat if v is not None):
            self.calls.append([None if v is None else _to_numpy(v) for v in flat])
            return
        # Inside a tf.function trace: collect the values whenever the traced function runs.
        mask = [v is not None for v in flat]
        inputs = [tf.convert_to_tensor(v) for v in flat if v is not None]
        calls = self.calls

        def store(*values):
            it = iter(values)
            calls.append([np.array(next(it).numpy()) if present else None for present in mask])
            return 0

        if inputs:
            tf.py_function(store, inputs, Tout=tf.int32)
        else:  # every gradient is None: known now, and it will not change at run time
            calls.append([None] * len(flat))

    def wrap(self, original):
        recorder = self

        def patched(tape, *args, **kwargs):
            depth = getattr(_local, "depth", 0)
            _local.depth = depth + 1
            try:
                result = original(tape, *args, **kwargs)
            finally:
                _local.depth = depth
            if depth == 0:
                recorder.record(result)
            return result

        patched.__name__ = original.__name__
        patched.__doc__ = original.__doc__
        patched.__wrapped__ = original
        return patched


class _GlobalTFState:
    """Process-wide switches a program may flip (e.g. tnp.experimental_enable_numpy_behavior(),
    which adds NumPy methods to tf.Tensor so that np.mean(t) would stay in TensorFlow): saved
    before a run and put back afterwards so one program cannot change how the next one behaves."""

    _MODULE_FLAGS = (
        ("tensorflow.python.framework.ops", "_dtype_conversion_mode"),
        ("tensorflow.python.framework.ops", "_numpy_style_slicing"),
        ("tensorflow.python.ops.numpy_ops.np_dtypes", "_prefer_float32"),
    )

    def __init__(self) -> None:
        import importlib

        self.classes = {cls: dict(cls.__dict__) for cls in (tf.Tensor, tf.Variable)}
        self.flags = []
        for module_name, attr in self._MODULE_FLAGS:
            try:
                module = importlib.import_module(module_name)
                self.flags.append((module, attr, getattr(module, attr)))
            except (ImportError, AttributeError):  # pragma: no cover - other TF versions
                pass

    def restore(self) -> None:
        for cls, saved in self.classes.items():
            for name in set(cls.__dict__) - set(saved):
                try:
                    delattr(cls, name)
                except (AttributeError, TypeError):  # pragma: no cover
                    pass
            for name, value in saved.items():
                if cls.__dict__.get(name, _MISSING) is not value:
                    try:
                        setattr(cls, name, value)
                    except (AttributeError, TypeError):  # pragma: no cover - read-only slots
                        pass
        for module, attr, value in self.flags:
            setattr(module, attr, value)


_MISSING = object()


def _reset_state() -> None:
    keras.backend.clear_session()
    try:
        keras.utils.set_random_seed(SEED)
    except Exception:  # pragma: no cover - keras without set_random_seed
        pass
    random.seed(SEED)
    np.random.seed(SEED)
    tf.random.set_seed(SEED)


class _SourceLines:
    """`source` registered in `linecache` as the text of `filename` while the program runs: the
    lookups AutoGraph makes through `inspect.getsource` then succeed as for a file on disk (an
    entry whose mtime is None is never checked against the disk, as for IPython's cells). Any
    earlier entry for that name is put back afterwards."""

    def __init__(self, source: str, filename: str) -> None:
        self.filename = filename
        self.entry = (len(source), None, source.splitlines(keepends=True), filename)

    def __enter__(self) -> None:
        self.previous = linecache.cache.get(self.filename, _MISSING)
        linecache.cache[self.filename] = self.entry

    def __exit__(self, *exc: object) -> None:
        if linecache.cache.get(self.filename) is self.entry:
            del linecache.cache[self.filename]
        if self.previous is not _MISSING:
            linecache.cache[self.filename] = self.previous


def run_program(source: str, filename: str = "<program>") -> Outcome:
    """Execute `source` (Python, or notebook JSON when `filename` ends with .ipynb) in this process.

    Returns the recorded gradient calls and the exception that ended the program, if any. The
    GradientTape methods are restored afterwards, whatever happened. While it runs, the source is
    what `inspect` and `linecache` read for `filename` (so AutoGraph can convert its functions).
    """
    if filename.endswith(".ipynb") and source.lstrip().startswith("{"):
        source = notebook_source(source)  # (an already joined notebook is run as it is)
    recorder = _Recorder()
    outcome = Outcome(gradients=recorder.calls, returned_list=recorder.returned_list)
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as exc:
        outcome.error = exc
        return outcome

    module = types.ModuleType("__main__")
    module.__dict__.update({"__file__": filename, "__builtins__": builtins})
    outcome.namespace = module.__dict__
    originals = {name: _GradientTape.__dict__[name] for name in ("gradient", "jacobian")}
    old_np_err = np.seterr(all="ignore")
    saved_state = _GlobalTFState()
    _reset_state()
    try:
        with warnings.catch_warnings(), _SourceLines(source, filename):
            warnings.simplefilter("ignore")
            for name, original in originals.items():
                setattr(_GradientTape, name, recorder.wrap(original))
            try:
                exec(code, module.__dict__)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001 - SystemExit included: it is the program's
                outcome.error = exc
    finally:
        for name, original in originals.items():
            setattr(_GradientTape, name, original)
        saved_state.restore()
        np.seterr(**old_np_err)
        _local.depth = 0
    return outcome
