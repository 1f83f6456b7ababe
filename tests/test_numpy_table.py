"""The numpy -> TensorFlow swap table, checked against real numpy and real TensorFlow.

Every sample is a numpy call in source form. It is parsed with libcst, rewritten by `swap_call`,
and both sources are evaluated: the numpy one with numpy arrays, the generated one with
`tf.constant` float32 tensors (and no `np` in scope). Values, shapes and dtypes must agree, and
each entry's gradient flags must match what `tf.GradientTape` reports.

TensorFlow is imported by the `tf` fixture, not by the module: the tests that take it are marked
`tf` (tests/conftest.py's TENSORFLOW), and the others run in the fast loop without TensorFlow.
"""
from __future__ import annotations

import os

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"

import functools  # noqa: E402
import inspect  # noqa: E402

import libcst as cst  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from gradguard.rules.catalogue import numpy_table  # noqa: E402

SWAPS = numpy_table.SWAPS
swap_call = numpy_table.swap_call
has_gradient = numpy_table.has_gradient

_f32 = functools.partial(np.array, dtype=np.float32)

# 2-D float32 inputs with negative, zero and .5 values.
X = _f32([[0.5, -1.5, 2.5, -0.5], [1.5, -2.5, 3.0, -0.25], [0.0, 2.0, -3.5, 4.5]])
Y = _f32([[1.0, -0.5, -2.5, 0.75], [-1.5, 2.5, 3.5, -4.0], [0.5, -2.0, 1.25, 4.5]])
P = _f32([[0.5, 1.5, 2.5, 0.25], [3.0, 0.75, 4.5, 1.0], [2.0, 0.125, 6.5, 9.0]])  # positive
# Halves to catch round-half-away-from-zero vs round-half-to-even, and near-halves.
R = _f32([[0.5, 1.5, 2.5, -0.5], [-1.5, -2.5, 3.5, 4.5], [0.49999997, -0.49999997, 2.5000002, -3.5]])
M = _f32([[0.5, -1.0, 2.0, 0.0, 1.5], [-0.5, 1.5, 0.25, -2.0, 1.0],
          [2.5, 0.0, -1.0, 0.5, -0.5], [1.0, -1.5, 0.5, 2.0, -2.5]])  # 4x5, for X @ M
X3 = np.stack([X, Y])  # 2x3x4
C = X[:, None, :]  # 3x1x4, for squeeze

# (numpy function, numpy source, inputs); the first input is the one gradients are taken for.
SAMPLES: list[tuple[str, str, dict[str, np.ndarray]]] = [
    ("round", "np.round(r)", {"r": R}),
    ("round", "np.round(r, 0)", {"r": R}),
    ("round", "np.round(a=r, decimals=0)", {"r": R}),
    ("around", "np.around(r)", {"r": R}),
    ("rint", "np.rint(r)", {"r": R}),
    ("floor", "np.floor(x)", {"x": X}),
    ("ceil", "np.ceil(x)", {"x": X}),
    ("mean", "np.mean(x)", {"x": X}),
    ("mean", "np.mean(x, axis=1, keepdims=True)", {"x": X}),
    ("mean", "np.mean(x, axis=(0, 1))", {"x": X}),
    ("mean", "np.mean(x3, axis=(0, 2), keepdims=True)", {"x3": X3}),
    ("mean", "np.mean(x, 0)", {"x": X}),
    ("mean", "np.mean(a=x, axis=-1)", {"x": X}),
    ("mean", "np.mean(x, 1, None, None, True)", {"x": X}),
    ("sum", "np.sum(x)", {"x": X}),
    ("sum", "np.sum(x, axis=0, keepdims=True)", {"x": X}),
    ("sum", "np.sum(x3, (1, 2), out=None)", {"x3": X3}),
    ("prod", "np.prod(x, axis=1)", {"x": X}),
    ("prod", "np.prod(p)", {"p": P}),
    ("max", "np.max(x)", {"x": X}),
    ("max", "np.max(x, axis=1, keepdims=True)", {"x": X}),
    ("amax", "np.amax(x, 0)", {"x": X}),
    ("min", "np.min(x, axis=-1)", {"x": X}),
    ("amin", "np.amin(x, axis=(0, 1), keepdims=True)", {"x": X}),
    ("std", "np.std(x)", {"x": X}),
    ("std", "np.std(x, axis=1, ddof=0, keepdims=True)", {"x": X}),
    ("var", "np.var(x, axis=0)", {"x": X}),
    ("var", "np.var(x3, (0, 2), None, None, 0, True)", {"x3": X3}),
    ("argmax", "np.argmax(x, axis=1)", {"x": X}),
    ("argmax", "np.argmax(x, -1)", {"x": X}),
    ("argmax", "np.argmax(x, 0)", {"x": X}),
    ("argmin", "np.argmin(x, axis=0)", {"x": X}),
    ("argmin", "np.argmin(x3, 2, keepdims=False)", {"x3": X3}),
    ("cumsum", "np.cumsum(x, axis=1)", {"x": X}),
    ("cumsum", "np.cumsum(x, 0)", {"x": X}),
    ("linalg.norm", "np.linalg.norm(x)", {"x": X}),
    ("linalg.norm", "np.linalg.norm(x, axis=1)", {"x": X}),
    ("linalg.norm", "np.linalg.norm(x, None, 1, True)", {"x": X}),
    ("linalg.norm", "np.linalg.norm(x3, axis=(1, 2))", {"x3": X3}),
    ("linalg.norm", "np.linalg.norm(x, ord=None, axis=-1, keepdims=True)", {"x": X}),
    ("square", "np.square(x)", {"x": X}),
    ("sqrt", "np.sqrt(p)", {"p": P}),
    ("exp", "np.exp(x)", {"x": X}),
    ("exp", "np.exp(x, out=None)", {"x": X}),
    ("expm1", "np.expm1(x)", {"x": X}),
    ("log", "np.log(p)", {"p": P}),
    ("log1p", "np.log1p(p)", {"p": P}),
    ("abs", "np.abs(x)", {"x": X}),
    ("absolute", "np.absolute(x)", {"x": X}),
    ("negative", "np.negative(x)", {"x": X}),
    ("tanh", "np.tanh(x)", {"x": X}),
    ("sin", "np.sin(x)", {"x": X}),
    ("cos", "np.cos(x)", {"x": X}),
    ("sign", "np.sign(x)", {"x": X}),
    ("maximum", "np.maximum(x, y)", {"x": X, "y": Y}),
    ("maximum", "np.maximum(x, 0.0)", {"x": X}),
    ("maximum", "np.maximum(x, 0)", {"x": X}),
    ("minimum", "np.minimum(x, y)", {"x": X, "y": Y}),
    ("minimum", "np.minimum(x, 0.5)", {"x": X}),
    ("power", "np.power(x, 2)", {"x": X}),
    ("power", "np.power(p, y)", {"p": P, "y": Y}),
    ("power", "np.power(p, 0.5)", {"p": P}),
    ("add", "np.add(x, y)", {"x": X, "y": Y}),
    ("add", "np.add(x, 0.5)", {"x": X}),
    ("subtract", "np.subtract(x, y)", {"x": X, "y": Y}),
    ("multiply", "np.multiply(x, y)", {"x": X, "y": Y}),
    ("multiply", "np.multiply(x, -2.5)", {"x": X}),
    ("divide", "np.divide(x, p)", {"x": X, "p": P}),
    ("divide", "np.divide(x, 4.0)", {"x": X}),
    ("matmul", "np.matmul(x, m)", {"x": X, "m": M}),
    ("matmul", "np.matmul(x3, m)", {"x3": X3, "m": M}),
    ("dot", "np.dot(x, m)", {"x": X, "m": M}),
    ("dot", "np.dot(x3, m)", {"x3": X3, "m": M}),
    ("clip", "np.clip(x, a_min=-0.5, a_max=0.5)", {"x": X}),
    ("clip", "np.clip(x, -1, 1)", {"x": X}),
    ("clip", "np.clip(x, min=-1.5, max=2.5)", {"x": X}),
    ("clip", "np.clip(x, -p, p)", {"x": X, "p": P}),
    ("clip", "np.clip(x, 0.0, a_max=2.0, out=None)", {"x": X}),
    ("where", "np.where(x > 0, x, y)", {"x": X, "y": Y}),
    ("where", "np.where(x > y, x, 0.0)", {"x": X, "y": Y}),
    ("concatenate", "np.concatenate([x, y], axis=0)", {"x": X, "y": Y}),
    ("concatenate", "np.concatenate((x, y))", {"x": X, "y": Y}),
    ("concatenate", "np.concatenate([x, y], 1)", {"x": X, "y": Y}),
    ("concatenate", "np.concatenate([x, y], axis=-1)", {"x": X, "y": Y}),
    ("stack", "np.stack([x, y])", {"x": X, "y": Y}),
    ("stack", "np.stack([x, y], axis=1)", {"x": X, "y": Y}),
    ("stack", "np.stack((x, y), -1)", {"x": X, "y": Y}),
    ("reshape", "np.reshape(x, (4, 3))", {"x": X}),
    ("reshape", "np.reshape(x, [-1])", {"x": X}),
    ("reshape", "np.reshape(x, shape=(2, 6))", {"x": X}),
    ("reshape", "np.reshape(x, (2, -1), order='C')", {"x": X}),
    ("expand_dims", "np.expand_dims(x, 0)", {"x": X}),
    ("expand_dims", "np.expand_dims(x, axis=-1)", {"x": X}),
    ("squeeze", "np.squeeze(c)", {"c": C}),
    ("squeeze", "np.squeeze(c, axis=1)", {"c": C}),
    ("transpose", "np.transpose(x)", {"x": X}),
    ("transpose", "np.transpose(x3, (1, 0, 2))", {"x3": X3}),
    ("transpose", "np.transpose(x3, axes=[2, 0, 1])", {"x3": X3}),
    ("sort", "np.sort(x)", {"x": X}),
    ("sort", "np.sort(x, axis=0)", {"x": X}),
    ("sort", "np.sort(x3, 1, kind='stable')", {"x3": X3}),
    ("array", "np.array(x)", {"x": X}),
    ("array", "np.array([x, y])", {"x": X, "y": Y}),
    ("asarray", "np.asarray(x)", {"x": X}),
    ("asarray", "np.asarray(x, dtype=None)", {"x": X}),
]

_MODULE = cst.Module([])


@pytest.fixture(scope="module")
def tf():
    """TensorFlow, for the tests that run it (tests/conftest.py marks the tests that take it `tf`)."""
    import tensorflow

    return tensorflow


def _tf_source(numpy_name: str, source: str) -> str:
    node = swap_call(cst.parse_expression(source), numpy_name)
    assert node is not None, f"{source} was refused"
    return _MODULE.code_for_node(node)


def _eval_tf(tf, code: str, tensors: dict):
    # No `np` in scope: the generated code must be pure TensorFlow; tensors: name -> tf.Tensor.
    return eval(code, {"tf": tf}, dict(tensors))  # noqa: S307 - the test's own samples


def _sample_id(sample: tuple[str, str, dict]) -> str:
    return sample[1]


@pytest.mark.parametrize("sample", SAMPLES, ids=_sample_id)
def test_swap_computes_what_numpy_computes(sample, tf):
    numpy_name, source, inputs = sample
    code = _tf_source(numpy_name, source)
    assert code.startswith(f"tf.{SWAPS[numpy_name].tf}(")
    expected = np.asarray(eval(source, {"np": np}, dict(inputs)))  # noqa: S307
    got = _eval_tf(tf, code, {name: tf.constant(value) for name, value in inputs.items()})
    assert isinstance(got, tf.Tensor), code
    assert tuple(got.shape) == expected.shape, code
    assert got.dtype.as_numpy_dtype == expected.dtype, code
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-6, err_msg=code)


def test_every_entry_has_a_sample():
    sampled = {numpy_name for numpy_name, _, _ in SAMPLES}
    assert set(SWAPS) - sampled == set(), "entries without a numerical sample"
    assert sampled - set(SWAPS) == set(), "samples for functions that are not in the table"
    for numpy_name, source, _ in SAMPLES:
        assert source.startswith(f"np.{numpy_name}("), source


def test_round_is_half_to_even_in_both(tf):
    halves = _f32([0.5, 1.5, 2.5, -0.5, -1.5, -2.5])
    to_even = _f32([0.0, 2.0, 2.0, -0.0, -2.0, -2.0])
    np.testing.assert_array_equal(np.round(halves), to_even)
    np.testing.assert_array_equal(
        _eval_tf(tf, _tf_source("round", "np.round(h)"), {"h": tf.constant(halves)}).numpy(), to_even)


def _gradient(tf, numpy_name: str, source: str, inputs: dict[str, np.ndarray]):
    code = _tf_source(numpy_name, source)
    tensors = {name: tf.constant(value) for name, value in inputs.items()}
    watched = tensors[next(iter(inputs))]
    with tf.GradientTape() as tape:
        for tensor in tensors.values():
            tape.watch(tensor)
        loss = tf.reduce_sum(tf.cast(_eval_tf(tf, code, tensors), tf.float32))
    return tape.gradient(loss, watched)


@pytest.mark.parametrize("sample", SAMPLES, ids=_sample_id)
def test_gradient_flags_match_tensorflow(sample, tf):
    numpy_name, source, inputs = sample
    swap = SWAPS[numpy_name]
    assert has_gradient(numpy_name) is swap.has_gradient
    gradient = _gradient(tf, numpy_name, source, inputs)
    assert (gradient is None) == (not swap.has_gradient), source
    if gradient is not None:
        assert (not np.any(gradient.numpy())) == swap.zero_gradient, source


def test_flags_recorded_for_ops_without_gradient():
    without = {name for name, swap in SWAPS.items() if not swap.has_gradient}
    assert without == {"round", "around", "rint", "floor", "ceil", "argmax", "argmin"}
    assert {name for name, swap in SWAPS.items() if swap.zero_gradient} == {"sign"}


def _tf_op(tf, path: str):
    return functools.reduce(getattr, path.split("."), tf)


def _np_function(name: str):
    return functools.reduce(getattr, name.split("."), np)


@pytest.mark.parametrize("numpy_name", sorted(SWAPS))
def test_table_matches_the_real_signatures(numpy_name, tf):
    swap = SWAPS[numpy_name]
    # TensorFlow: the leading parameters, in order, are those the table emits.
    tf_params = list(inspect.signature(_tf_op(tf, swap.tf)).parameters)
    assert tf_params[: len(swap.to_tf)] == [tf_param for _, tf_param in swap.to_tf]
    for tf_param, _ in swap.tf_defaults:
        assert tf_param in tf_params
    # numpy: the positional parameters, and every keyword is translated, dropped or aliased.
    function = _np_function(numpy_name)
    handled = set(swap.drop) | set(swap.aliases) | {p for p, _ in swap.to_tf if p}
    if isinstance(function, np.ufunc):
        inputs = ("x",) if function.nin == 1 else tuple(f"x{i + 1}" for i in range(function.nin))
        assert swap.params == (*inputs, "out") and swap.posonly == function.nin
        assert set(swap.params) <= handled
        return
    parameters = inspect.signature(function).parameters.values()
    positional = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert swap.params == tuple(positional)
    assert swap.posonly == sum(p.kind == p.POSITIONAL_ONLY for p in parameters)
    for parameter in parameters:
        if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            assert parameter.name in handled, parameter.name
        if parameter.default is parameter.empty and parameter.kind != parameter.VAR_KEYWORD:
            assert parameter.name in swap.required, parameter.name


@pytest.mark.parametrize(("numpy_name", "source", "expected"), [
    ("clip", "np.clip(q, a_min=0, a_max=1)", "tf.clip_by_value(q, clip_value_min=0, clip_value_max=1)"),
    ("clip", "np.clip(q, 0, 1)", "tf.clip_by_value(q, 0, 1)"),
    ("mean", "np.mean(x, axis=1, keepdims=True)", "tf.reduce_mean(x, axis=1, keepdims=True)"),
    ("mean", "np.mean(a=x)", "tf.reduce_mean(x)"),
    ("concatenate", "np.concatenate([a, b], axis=0)", "tf.concat([a, b], axis=0)"),
    ("concatenate", "np.concatenate([a, b])", "tf.concat([a, b], axis=0)"),
    ("round", "np.round(x)", "tf.round(x)"),
    ("round", "np.round(x, 0)", "tf.round(x)"),
    ("linalg.norm", "np.linalg.norm(x, None, 1)", "tf.norm(x, axis=1)"),
    ("std", "np.std(x, 0, None, None, 0, True)", "tf.math.reduce_std(x, 0, True)"),
    ("transpose", "np.transpose(x, axes=(1, 0))", "tf.transpose(x, perm=(1, 0))"),
    ("log", "np.log(p)", "tf.math.log(p)"),
    ("mean", "np.mean(\n    x,  # logits\n    axis=1,\n)", "tf.reduce_mean(\n    x,  # logits\n    axis=1,\n)"),
    ("sum", "np.sum( x , axis = -1 )", "tf.reduce_sum( x , axis = -1 )"),
])
def test_rendered_source(numpy_name, source, expected):
    assert _tf_source(numpy_name, source) == expected


_RENDERED = [(name, source) for name, source, _ in SAMPLES] + [
    ("clip", "np.clip(q, a_min=0, a_max=1)"), ("mean", "np.mean(a=x)"), ("concatenate", "np.concatenate([a, b])"),
    ("round", "np.round(x, 0)"), ("linalg.norm", "np.linalg.norm(x, None, 1)"),
    ("std", "np.std(x, 0, None, None, 0, True)"), ("transpose", "np.transpose(x, axes=(1, 0))"),
    ("mean", "np.mean(\n    x,  # logits\n    axis=1,\n)"), ("sum", "np.sum( x , axis = -1 )"),
    ("round", "np.round(x, 2)"), ("mean", "np.mean(x, out=y)"), ("sum", "np.sum(x, **kwargs)"),
    ("argmax", "np.argmax(x, axis=ax)"), ("clip", "np.clip(x, 0, a_max=1, max=2)"),
]


@pytest.mark.parametrize(("numpy_name", "source"), _RENDERED, ids=[s for _, s in _RENDERED])
def test_the_ast_plan_agrees_with_the_libcst_rewrite(numpy_name, source):
    """GG102 decides from `ast` alone whether a call can be swapped and, when only the name
    changes, edits just the name without loading libcst: both must give swap_call's result."""
    import ast

    arguments = numpy_table.ast_arguments(ast.parse(source, mode="eval").body)
    plan = numpy_table.plan_swap(numpy_name, arguments)
    rewritten = swap_call(cst.parse_expression(source), numpy_name)
    assert (plan is None) == (rewritten is None)
    if plan is not None and numpy_table.keeps_arguments(plan, arguments):
        renamed = f"tf.{SWAPS[numpy_name].tf}" + source[source.index("("):]
        assert renamed == _MODULE.code_for_node(rewritten)


def test_tf_alias_is_used():
    node = swap_call(cst.parse_expression("numpy.mean(x)"), "mean", "tensorflow")
    assert _MODULE.code_for_node(node) == "tensorflow.reduce_mean(x)"


@pytest.mark.parametrize(("numpy_name", "source"), [
    ("round", "np.round(x, 2)"),
    ("round", "np.round(x, decimals=1)"),
    ("round", "np.round(x, d)"),
    ("mean", "np.mean(x, out=y)"),
    ("mean", "np.mean(x, dtype=np.float64)"),
    ("mean", "np.mean(x, where=m)"),
    ("mean", "np.mean(x, foo=1)"),
    ("mean", "np.mean(x, axis=1, axis=2)"),
    ("sum", "np.sum(*args)"),
    ("sum", "np.sum(x, **kwargs)"),
    ("sum", "np.sum(x, 0, None, None, False, 0, True, 7)"),
    ("max", "np.max(x, initial=0)"),
    ("std", "np.std(x, ddof=1)"),
    ("var", "np.var(x, mean=mu)"),
    ("clip", "np.clip(x, None, 1)"),
    ("clip", "np.clip(x, a_min=0)"),
    ("clip", "np.clip(x, 0, 1, out)"),
    ("clip", "np.clip(x, 0, a_max=1, max=2)"),
    ("where", "np.where(c)"),
    ("where", "np.where(condition=c, x=a, y=b)"),
    ("argmax", "np.argmax(x)"),
    ("argmax", "np.argmax(x, axis=None)"),
    ("argmax", "np.argmax(x, axis=ax)"),
    ("argmin", "np.argmin(x, 1, keepdims=True)"),
    ("cumsum", "np.cumsum(x)"),
    ("concatenate", "np.concatenate([x, y], axis=None)"),
    ("concatenate", "np.concatenate(arrays=[x, y])"),
    ("sort", "np.sort(x, axis=None)"),
    ("sort", "np.sort(x, order='f')"),
    ("linalg.norm", "np.linalg.norm(x, ord=1)"),
    ("linalg.norm", "np.linalg.norm(x, 2)"),
    ("exp", "np.exp(x, y)"),
    ("exp", "np.exp(x=y)"),
    ("exp", "np.exp(x, dtype=np.float64)"),
    ("add", "np.add(x)"),
    ("array", "np.array(x, dtype=np.float32)"),
    ("asarray", "np.asarray(x, np.float32)"),
    ("reshape", "np.reshape(x, (2, 6), order='F')"),
    ("dot", "np.dot(x, y, out)"),
    ("matmul", "np.matmul(x, y, axes=[(0, 1), (0, 1), (0, 1)])"),
    ("take", "np.take(x, i, axis=0)"),
    ("exp2", "np.exp2(x)"),
])
def test_untranslatable_calls_are_refused(numpy_name, source):
    assert swap_call(cst.parse_expression(source), numpy_name) is None
