"""The numpy -> TensorFlow translation table behind the "use the TensorFlow op" quick fix.

A numpy function applied to a tensor (`np.mean(logits)`, `np.clip(q, 0, 1)`) converts it to an
ndarray, and the gradient tape loses track of it: the loss gets no gradient. The fix replaces the
call with the TensorFlow op that computes the same values, translating the arguments:
`np.clip(q, a_min=0, a_max=1)` becomes `tf.clip_by_value(q, clip_value_min=0, clip_value_max=1)`.

Each `Swap` records the numpy signature (which parameters may be positional, which are
positional-only), how each numpy parameter maps to a TensorFlow parameter, which numpy arguments
have no TensorFlow counterpart (accepted only with a literal no-op value such as `out=None` or
`decimals=0`, which is dropped; any other value refuses the swap), and whether the TensorFlow op
has a gradient at all: `tf.round`, `tf.floor`, `tf.argmax`, ... are not differentiable, so the
fix makes the gradient `None` in TensorFlow instead of in numpy, and the quick fix must say so.

`swap_call` never guesses: an unknown keyword, `*args`/`**kwargs`, an argument it cannot
translate, or a value it cannot check (where checking matters) makes it return None.

Verification: tests/test_numpy_table.py parses a sample call for every entry, runs `swap_call`,
evaluates the numpy source with numpy and the generated source with TensorFlow on the same
float32 inputs (2-D, negative and .5 values) and compares values and shapes; it also checks each
entry's `has_gradient`/`zero_gradient` flags with a `tf.GradientTape`. Only entries that pass
are in the table.

Known caveats, shared by numpy and TensorFlow users but not by their results (documented in
`Swap.note`): TensorFlow reductions keep integer dtypes (`tf.reduce_mean` of an int tensor does
integer division where `np.mean` returns a float), and `np.clip` with `a_min > a_max` returns
`a_max` everywhere while `tf.clip_by_value` returns `a_min`.

Left out on purpose: `np.exp2` (no TensorFlow op; `tf.pow(2., x)` needs a new argument), `np.take`
(numpy wraps negative indices and flattens without `axis`; `tf.gather` rejects negative indices on
CPU), `np.einsum` (variadic operands), `np.argsort` (stability differs), `np.log2`/`np.log10`
(no single TensorFlow op).

This module imports neither TensorFlow nor numpy: only the stdlib, and libcst when a call is
rewritten (importing libcst costs a `gradguard check` process more than analysing 1,000 lines).
"""
from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:
    from typing import Any
    import libcst as cst

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(unsafe_hash=True)
class Swap:
    """One numpy function and the TensorFlow op that replaces it."""

    numpy: str
    """numpy name relative to the numpy module: "mean", "linalg.norm"."""
    tf: str
    """TensorFlow dotted path relative to the `tf` alias: "reduce_mean", "math.log"."""
    params: tuple[str, ...]
    """numpy parameters that may be passed positionally, in numpy's order."""
    to_tf: tuple[tuple[str | None, str], ...]
    """(numpy parameter, TensorFlow parameter): TensorFlow's leading parameters in signature order,
    with None for a TensorFlow parameter no numpy argument maps to (`tf.norm`'s `ord`). An
    argument is emitted positionally while it was positional in the source (or is the first, the
    tensor) and every earlier TensorFlow parameter was emitted positionally; otherwise as a
    keyword."""
    posonly: int = 0
    """How many leading `params` are positional-only in numpy (passing them by keyword is a
    TypeError in numpy, so the call is left alone)."""
    aliases: Mapping[str, str] = field(default_factory=lambda: _EMPTY, hash=False)
    """Alternative numpy keyword names: np.clip's `min=`/`max=` for `a_min`/`a_max`."""
    required: frozenset[str] = frozenset()
    """numpy parameters that must be present for the swap (the tensor, `where`'s x and y,
    `argmax`'s axis whose numpy default (flatten) differs from TensorFlow's (axis 0))."""
    drop: Mapping[str, tuple[Any, ...]] = field(default_factory=lambda: _EMPTY, hash=False)
    """numpy parameters with no TensorFlow counterpart, with the literal values that are no-ops
    (the argument is dropped). Any other value, or a non-literal, refuses the swap. An empty tuple
    means the parameter always refuses (`out=` with a real array, `initial=`, ...)."""
    refuse: Mapping[str, tuple[Any, ...]] = field(default_factory=lambda: _EMPTY, hash=False)
    """Translated numpy parameters whose literal values in this tuple refuse the swap
    (`np.concatenate(axis=None)` flattens; `np.clip(a_min=None)` is one-sided)."""
    literal: frozenset[str] = frozenset()
    """Translated parameters whose value must be a literal (so `refuse` can be checked): for
    `argmax` a runtime `axis=None` would silently become axis 0 in TensorFlow."""
    tf_defaults: tuple[tuple[str, str], ...] = ()
    """(TensorFlow parameter, source) added when the numpy argument is absent because the two
    defaults differ (`tf.concat` has no default axis; numpy's is 0)."""
    has_gradient: bool = True
    """False when the TensorFlow op has no gradient either (`tape.gradient` gives None)."""
    zero_gradient: bool = False
    """True when the gradient exists but is zero everywhere (`tf.sign`)."""
    note: str = ""
    """Caveats worth telling the user."""

    def tf_param(self, numpy_param: str) -> str | None:
        """The TensorFlow parameter `numpy_param` becomes, or None if it has none."""
        for np_name, tf_name in self.to_tf:
            if np_name is not None and np_name == numpy_param:
                return tf_name
        return None


def has_gradient(numpy_name: str) -> bool:
    """Whether the TensorFlow replacement of `numpy_name` has a (non-None) gradient."""
    return SWAPS[numpy_name].has_gradient


# ---------------------------------------------------------------------------------------------
# Table builders

_OUT_NONE = {"out": (None,)}
# Keyword-only arguments every ufunc accepts; all but these no-op values refuse the swap.
_UFUNC_KW = {"where": (True,), "casting": ("same_kind",), "order": ("K",), "dtype": (None,),
             "subok": (True,), "signature": (None,)}
_INT_NOTE = "integer tensors keep their dtype in TensorFlow (numpy may promote to float)"


def _ufunc1(np_name: str, tf_name: str, *, grad: bool = True, zero: bool = False, note: str = "") -> Swap:
    """A one-input numpy ufunc: f(x, /, out=None, *, where, casting, order, dtype, subok)."""
    return Swap(np_name, tf_name, params=("x", "out"), posonly=1, to_tf=(("x", "x"),),
                required=frozenset({"x"}), drop=MappingProxyType({**_OUT_NONE, **_UFUNC_KW}),
                has_gradient=grad, zero_gradient=zero, note=note)


def _ufunc2(np_name: str, tf_name: str, tf_params: tuple[str, str] = ("x", "y"), note: str = "") -> Swap:
    """A two-input numpy ufunc: f(x1, x2, /, out=None, *, ...)."""
    return Swap(np_name, tf_name, params=("x1", "x2", "out"), posonly=2,
                to_tf=(("x1", tf_params[0]), ("x2", tf_params[1])),
                required=frozenset({"x1", "x2"}), drop=MappingProxyType({**_OUT_NONE, **_UFUNC_KW}),
                note=note)


def _reduce(np_name: str, tf_name: str, params: tuple[str, ...], *, kwonly: tuple[str, ...] = (),
            extra_drop: Mapping[str, tuple[Any, ...]] = _EMPTY, note: str = "") -> Swap:
    """A numpy reduction (a, axis, [dtype], out, keepdims, ...) -> tf.reduce_*(t, axis, keepdims)."""
    drop: dict[str, tuple[Any, ...]] = {"out": (None,), "dtype": (None,), "initial": (), "where": (True,)}
    drop.update(extra_drop)
    names = set(params) | set(kwonly)
    return Swap(np_name, tf_name, params=params,
                to_tf=(("a", "input_tensor"), ("axis", "axis"), ("keepdims", "keepdims")),
                required=frozenset({"a"}),
                drop=MappingProxyType({k: v for k, v in drop.items() if k in names}),
                note=note)


_MEAN_PARAMS = ("a", "axis", "dtype", "out", "keepdims")
_SUM_PARAMS = ("a", "axis", "dtype", "out", "keepdims", "initial", "where")
_MAX_PARAMS = ("a", "axis", "out", "keepdims", "initial", "where")
_STD_PARAMS = ("a", "axis", "dtype", "out", "ddof", "keepdims")
_STD_DROP = {"ddof": (0,), "correction": (0,), "mean": ()}
_ROUND_NOTE = ("tf.round has no gradient either (None), like np.round; both round half to even. "
               "Use a straight-through estimator (x + tf.stop_gradient(tf.round(x) - x)) to train "
               "through rounding")


def _round(np_name: str) -> Swap:
    return Swap(np_name, "round", params=("a", "decimals", "out"), to_tf=(("a", "x"),),
                required=frozenset({"a"}),
                drop=MappingProxyType({"decimals": (0,), "out": (None,)}),
                has_gradient=False, note=_ROUND_NOTE)


def _arg_reduce(np_name: str, tf_name: str) -> Swap:
    return Swap(np_name, tf_name, params=("a", "axis", "out"),
                to_tf=(("a", "input"), ("axis", "axis")),
                required=frozenset({"a", "axis"}), literal=frozenset({"axis"}),
                refuse=MappingProxyType({"axis": (None,)}),
                drop=MappingProxyType({"out": (None,), "keepdims": (False,)}),
                has_gradient=False,
                note=f"indices have no gradient; numpy flattens without axis, tf.{tf_name} uses axis 0, "
                     "so a literal axis is required")


def _array(np_name: str, params: tuple[str, ...], drop: Mapping[str, tuple[Any, ...]]) -> Swap:
    return Swap(np_name, "convert_to_tensor", params=params, to_tf=((params[0], "value"),),
                required=frozenset({params[0]}), drop=MappingProxyType(dict(drop)),
                note="dtype= is refused: tf.convert_to_tensor raises instead of casting a tensor")


_ENTRIES: tuple[Swap, ...] = (
    # Rounding: same values (half to even in both), and still no gradient in TensorFlow.
    _round("round"),
    _round("around"),
    _ufunc1("rint", "math.rint", grad=False, note=_ROUND_NOTE),
    _ufunc1("floor", "floor", grad=False, note="tf.floor has no gradient either (None)"),
    _ufunc1("ceil", "math.ceil", grad=False, note="tf.math.ceil has no gradient either (None)"),
    # Reductions.
    _reduce("mean", "reduce_mean", _MEAN_PARAMS, kwonly=("where",),
            note="tf.reduce_mean of an integer tensor divides as integers; np.mean returns a float"),
    _reduce("sum", "reduce_sum", _SUM_PARAMS, note=_INT_NOTE),
    _reduce("prod", "reduce_prod", _SUM_PARAMS, note=_INT_NOTE),
    _reduce("max", "reduce_max", _MAX_PARAMS),
    _reduce("amax", "reduce_max", _MAX_PARAMS),
    _reduce("min", "reduce_min", _MAX_PARAMS),
    _reduce("amin", "reduce_min", _MAX_PARAMS),
    _reduce("std", "math.reduce_std", _STD_PARAMS, kwonly=("where", "mean", "correction"),
            extra_drop=_STD_DROP, note="only the population std (ddof=0) is translated"),
    _reduce("var", "math.reduce_variance", _STD_PARAMS, kwonly=("where", "mean", "correction"),
            extra_drop=_STD_DROP, note="only the population variance (ddof=0) is translated"),
    _arg_reduce("argmax", "argmax"),
    _arg_reduce("argmin", "argmin"),
    Swap("cumsum", "cumsum", params=("a", "axis", "dtype", "out"),
         to_tf=(("a", "x"), ("axis", "axis")),
         required=frozenset({"a", "axis"}), literal=frozenset({"axis"}),
         refuse=MappingProxyType({"axis": (None,)}),
         drop=MappingProxyType({"dtype": (None,), "out": (None,)}),
         note="numpy flattens without axis, tf.cumsum uses axis 0, so a literal axis is required"),
    Swap("linalg.norm", "norm", params=("x", "ord", "axis", "keepdims"),
         to_tf=(("x", "tensor"), (None, "ord"), ("axis", "axis"), ("keepdims", "keepdims")),
         required=frozenset({"x"}), drop=MappingProxyType({"ord": (None,)}),
         note="only the default (2-norm / Frobenius) ord=None is translated"),
    # Element-wise, one input.
    _ufunc1("square", "square"),
    _ufunc1("sqrt", "sqrt"),
    _ufunc1("exp", "exp"),
    _ufunc1("expm1", "math.expm1"),
    _ufunc1("log", "math.log"),
    _ufunc1("log1p", "math.log1p"),
    _ufunc1("abs", "abs"),
    _ufunc1("absolute", "abs"),
    _ufunc1("negative", "negative"),
    _ufunc1("tanh", "tanh"),
    _ufunc1("sin", "sin"),
    _ufunc1("cos", "cos"),
    _ufunc1("sign", "sign", zero=True, note="tf.sign's gradient is defined but zero everywhere"),
    # Element-wise, two inputs.
    _ufunc2("maximum", "maximum"),
    _ufunc2("minimum", "minimum"),
    _ufunc2("power", "pow"),
    _ufunc2("add", "add", note="tf.add needs both operands of one dtype"),
    _ufunc2("subtract", "subtract", note="tf.subtract needs both operands of one dtype"),
    _ufunc2("multiply", "multiply", note="tf.multiply needs both operands of one dtype"),
    _ufunc2("divide", "divide"),
    # np.matmul is a ufunc in numpy 2; np.dot agrees with tf.matmul when the second operand is
    # 2-D (any rank >= 2 for the first). For 1-D operands tf.matmul raises (loud, not wrong);
    # for two batched (>= 3-D) operands np.dot's result has a different shape.
    _ufunc2("matmul", "matmul", ("a", "b")),
    Swap("dot", "matmul", params=("a", "b", "out"), to_tf=(("a", "a"), ("b", "b")),
         required=frozenset({"a", "b"}), drop=MappingProxyType({"out": (None,)}),
         note="tf.matmul equals np.dot for matrices (2-D second operand); it raises for vectors, "
              "and differs from np.dot for two batched (3-D+) operands"),
    Swap("clip", "clip_by_value", params=("a", "a_min", "a_max", "out"),
         to_tf=(("a", "t"), ("a_min", "clip_value_min"), ("a_max", "clip_value_max")),
         aliases=MappingProxyType({"min": "a_min", "max": "a_max"}),
         required=frozenset({"a", "a_min", "a_max"}),
         refuse=MappingProxyType({"a_min": (None,), "a_max": (None,)}),
         drop=MappingProxyType({"out": (None,)}),
         note="if a_min > a_max, np.clip returns a_max everywhere, tf.clip_by_value returns a_min"),
    Swap("where", "where", params=("condition", "x", "y"), posonly=3,
         to_tf=(("condition", "condition"), ("x", "x"), ("y", "y")),
         required=frozenset({"condition", "x", "y"}),
         note="only the three-argument form; np.where(cond) returns index arrays"),
    # Shapes and assembly.
    Swap("concatenate", "concat", params=("arrays", "axis", "out"), posonly=1,
         to_tf=(("arrays", "values"), ("axis", "axis")),
         required=frozenset({"arrays"}), refuse=MappingProxyType({"axis": (None,)}),
         drop=MappingProxyType({"out": (None,), "dtype": (None,), "casting": ("same_kind",)}),
         tf_defaults=(("axis", "0"),), note="tf.concat has no default axis: axis=0 is added"),
    Swap("stack", "stack", params=("arrays", "axis", "out"),
         to_tf=(("arrays", "values"), ("axis", "axis")),
         required=frozenset({"arrays"}),
         drop=MappingProxyType({"out": (None,), "dtype": (None,), "casting": ("same_kind",)})),
    Swap("reshape", "reshape", params=("a", "shape", "order"), posonly=1,
         to_tf=(("a", "tensor"), ("shape", "shape")),
         required=frozenset({"a", "shape"}),
         drop=MappingProxyType({"order": ("C",), "copy": (None, True)})),
    Swap("expand_dims", "expand_dims", params=("a", "axis"),
         to_tf=(("a", "input"), ("axis", "axis")), required=frozenset({"a", "axis"}),
         note="tf.expand_dims takes one axis; a tuple raises"),
    Swap("squeeze", "squeeze", params=("a", "axis"),
         to_tf=(("a", "input"), ("axis", "axis")), required=frozenset({"a"})),
    Swap("transpose", "transpose", params=("a", "axes"),
         to_tf=(("a", "a"), ("axes", "perm")), required=frozenset({"a"})),
    Swap("sort", "sort", params=("a", "axis", "kind", "order"),
         to_tf=(("a", "values"), ("axis", "axis")), required=frozenset({"a"}),
         literal=frozenset({"axis"}), refuse=MappingProxyType({"axis": (None,)}),
         drop=MappingProxyType({"kind": (None, "quicksort", "mergesort", "heapsort", "stable"),
                                "order": (None,), "stable": (None, True, False)}),
         note="numpy flattens with axis=None; tf.sort does not, so such calls are refused"),
    _array("array", ("object", "dtype"),
           {"dtype": (None,), "copy": (None, True, False), "order": ("K", "A", "C"),
            "subok": (False, True), "ndmin": (0,), "ndmax": (0,), "like": (None,)}),
    _array("asarray", ("a", "dtype", "order"),
           {"dtype": (None,), "order": (None, "K", "A", "C"), "device": (None,),
            "copy": (None, True, False), "like": (None,)}),
)

SWAPS: dict[str, Swap] = {swap.numpy: swap for swap in _ENTRIES}
"""numpy function name (relative to the numpy module) -> its TensorFlow replacement."""


# ---------------------------------------------------------------------------------------------
# Rewriting a call

_NOT_LITERAL = object()


@dataclass(unsafe_hash=True)
class Argument:
    """What a swap needs to know of one argument of the numpy call (from libcst or `ast` alike)."""

    keyword: str | None
    star: bool = False            # `*args` or `**kwargs`
    literal: Any = _NOT_LITERAL   # its Python value when it is a literal (`0`, `None`, `(0, 1)`)


@dataclass(unsafe_hash=True)
class Planned:
    """One argument of the TensorFlow call: the numpy call's argument `index`, or a `default`'s
    source text, passed by `keyword` (None: positionally)."""

    index: int | None
    keyword: str | None
    default: str | None = None


def plan_swap(numpy_name: str, arguments: list[Argument]) -> list[Planned] | None:
    """The TensorFlow call's arguments, in TensorFlow's order; None if the call cannot be
    translated exactly (unknown or refused argument, `*args`/`**kwargs`, missing argument)."""
    swap = SWAPS.get(numpy_name)
    if swap is None:
        return None
    bound = _bind(swap, arguments)
    if bound is None:
        return None
    defaults = dict(swap.tf_defaults)
    plan: list[Planned] = []
    still_positional = True
    for index, (np_param, tf_param) in enumerate(swap.to_tf):
        if np_param is None or np_param not in bound:
            still_positional = False
            if tf_param in defaults:
                plan.append(Planned(None, tf_param, defaults[tf_param]))
            continue
        position, positional = bound[np_param]
        if still_positional and (positional or index == 0):
            plan.append(Planned(position, None))
        else:
            still_positional = False
            plan.append(Planned(position, tf_param))
    return plan


def keeps_arguments(plan: list[Planned], arguments: list[Argument]) -> bool:
    """Whether the TensorFlow call takes the numpy call's arguments exactly as written, so that
    only the function's name changes."""
    return len(plan) == len(arguments) and all(
        step.index == i and step.keyword == arguments[i].keyword for i, step in enumerate(plan))


def _bind(swap: Swap, arguments: list[Argument]) -> dict[str, tuple[int, bool]] | None:
    """numpy parameter → (the argument's index, passed positionally); None if one refuses."""
    bound: dict[str, tuple[int, bool]] = {}
    known = set(swap.params) | set(swap.drop) | {np_name for np_name, _ in swap.to_tf if np_name}
    for index, arg in enumerate(arguments):
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(swap.params):
                return None
            name, positional = swap.params[index], True
        else:
            name = swap.aliases.get(arg.keyword, arg.keyword)
            positional = False
            if name in swap.params[: swap.posonly] or name not in known:
                return None
        if name in bound:
            return None
        bound[name] = (index, positional)

    if not swap.required <= bound.keys():
        return None
    for name, (index, _) in bound.items():
        value = arguments[index].literal
        if name in swap.drop:
            if value is _NOT_LITERAL or not _one_of(value, swap.drop[name]):
                return None
        elif swap.tf_param(name) is None:
            return None
        elif value is _NOT_LITERAL:
            if name in swap.literal:
                return None
        elif _one_of(value, swap.refuse.get(name, ())):
            return None
    return bound


def _one_of(value: Any, allowed: tuple[Any, ...]) -> bool:
    """Whether the literal `value` is one of `allowed`, type-strictly (`True` is not `1`, `0.0` is not `0`)."""
    for candidate in allowed:
        if candidate is None or isinstance(candidate, bool) or isinstance(value, bool):
            if value is candidate:
                return True
        elif type(value) is type(candidate) and value == candidate:
            return True
    return False


def _literal(value: str | ast.AST) -> Any:
    """The Python value of a literal argument, given as source text or an `ast` node, else _NOT_LITERAL."""
    if isinstance(value, ast.AST):
        return _node_literal(value)
    try:
        return ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _node_literal(node: ast.AST) -> Any:
    """`ast.literal_eval` of a node, for the literals calls are given: written out here because
    `literal_eval` defines functions that refer to one another at every call, garbage for the
    collector at every keystroke of an editor."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float, complex)) \
            and not isinstance(node.operand.value, bool):
        return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = [_node_literal(elt) for elt in node.elts]
        if any(item is _NOT_LITERAL for item in items):
            return _NOT_LITERAL
        if isinstance(node, ast.Set):
            try:
                return set(items)
            except TypeError:  # (an unhashable element: `{[1]}`)
                return _NOT_LITERAL
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Dict) and None not in node.keys:
        keys, values = [_node_literal(k) for k in node.keys], [_node_literal(v) for v in node.values]
        if any(x is _NOT_LITERAL for x in keys + values):
            return _NOT_LITERAL
        try:
            return dict(zip(keys, values))
        except TypeError:  # (an unhashable key: `{[1]: 2}`)
            return _NOT_LITERAL
    return _NOT_LITERAL


def ast_arguments(call: ast.Call) -> list[Argument]:
    """The arguments of an `ast` call, in source order (positional ones come first)."""
    positional = [Argument(None, star=isinstance(a, ast.Starred), literal=_literal(a)) for a in call.args]
    return positional + [Argument(k.arg, star=k.arg is None, literal=_literal(k.value)) for k in call.keywords]


def swap_call(call: cst.Call, numpy_name: str, tf_name: str = "tf") -> cst.Call | None:
    """The TensorFlow call replacing `call`, a call of numpy's `numpy_name`; None if it cannot be
    translated exactly (see `plan_swap`).

    Argument expressions are reused as they are (their whitespace and comments survive);
    keywords are renamed, reordered into TensorFlow's order, or turned positional as needed.
    """
    import libcst as cst  # here, not at the top: a check that renders no such fix never pays for it

    module = cst.Module([])
    arguments = [Argument(a.keyword.value if a.keyword else None, star=bool(a.star),
                          literal=_literal(module.code_for_node(a.value))) for a in call.args]
    plan = plan_swap(numpy_name, arguments)
    if plan is None:
        return None
    equal = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
    new_args: list[cst.Arg] = []
    for step in plan:
        if step.index is None:
            new_args.append(cst.Arg(value=cst.parse_expression(step.default), keyword=cst.Name(step.keyword),
                                    equal=equal))
            continue
        arg = call.args[step.index]
        if step.keyword is None:
            if arg.keyword is not None:
                arg = arg.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        elif arg.keyword is None:
            arg = arg.with_changes(keyword=cst.Name(step.keyword), equal=equal)
        elif arg.keyword.value != step.keyword:
            arg = arg.with_changes(keyword=cst.Name(step.keyword))
        new_args.append(arg)

    # Commas: every argument but the last needs one; the last keeps the source's trailing comma.
    last_comma = call.args[-1].comma if call.args else cst.MaybeSentinel.DEFAULT
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    for i, arg in enumerate(new_args):
        if i == len(new_args) - 1:
            new_args[i] = arg.with_changes(comma=last_comma)
        elif not isinstance(arg.comma, cst.Comma):
            new_args[i] = arg.with_changes(comma=comma)

    func = cst.parse_expression(f"{tf_name}.{SWAPS[numpy_name].tf}")
    return call.with_changes(func=func, args=new_args)
