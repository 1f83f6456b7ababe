"""`@tf.custom_gradient` functions: which variables the forward pass reads, and what the `grad`
function it returns does with them (GG314).

TensorFlow hands the variables a custom-gradient function reads to its `grad` as the keyword
`variables`, and takes their gradients from `grad`'s second result: a `grad` without that keyword
makes TensorFlow raise `TypeError` as soon as a tape records the call, and a second result of
Nones gives those variables no gradient at all.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .values import OriginKind, Value

CUSTOM_GRADIENT = {"tensorflow.custom_gradient", "tensorflow.compat.v1.custom_gradient",
                   "tensorflow.compat.v2.custom_gradient"}


@dataclass(unsafe_hash=True)
class CustomGradient:
    function: ast.FunctionDef        # the decorated function
    grad: ast.AST                    # the `grad` function it returns (a def or a lambda)
    variables: tuple[str, ...]       # the variables the forward pass reads, as the file names them
    problem: str                     # "keyword": `grad` takes no `variables`; "none": it returns None for them


def is_custom_gradient_def(node: ast.AST, imports) -> bool:
    return any(imports.qualname(d.func if isinstance(d, ast.Call) else d) in CUSTOM_GRADIENT
               for d in getattr(node, "decorator_list", ()))


def inspect(function: ast.FunctionDef, summary: Value, doc) -> CustomGradient | None:
    """What is wrong with `function`'s `grad`, given the summary of calling `function` (whose
    live gradients from anything but its parameters are the variables it may read). Only reads
    that are proof count: the summary over-approximates what a call depends on, and TensorFlow
    raises only for trainable variables the forward pass really reads. A dependence that starts
    at a variable's read is one; one that starts at a call is one only when the function itself
    calls a layer (`self.dense(x)`), not a method of an object it holds (`self.queue.dequeue()`)
    nor a call made elsewhere whose result it captures (an object a method of the class built)."""
    grad = _returned_grad(function)
    read = summary.items[0] if summary.items and len(summary.items) == 2 else summary
    read_at = {g.site for g in read.live if g.origin.kind is not OriginKind.PARAM}
    calls = {span: n for n in doc.nodes_of(ast.Call) if (span := doc.span(n)) in read_at}  # the dependences a call starts
    inside = {id(n) for n in ast.walk(function)} if calls else set()
    unproven = {span for span, n in calls.items() if id(n) not in inside or not _calls_a_layer(n, doc)}
    variables = tuple(sorted({g.origin.name for g in read.live
                              if g.origin.kind is not OriginKind.PARAM and g.site not in unproven}))
    if grad is None or not variables:
        return None
    if not _takes_variables(grad):
        return CustomGradient(function, grad, variables, "keyword")
    if _returns_none_for_variables(grad):
        return CustomGradient(function, grad, variables, "none")
    return None


def _calls_a_layer(call: ast.Call, doc) -> bool:
    """`self.dense(x)` where the class sets `self.dense = keras.layers.Dense(...)`, or `layer(x)`
    for a module-level `layer = keras.layers.Dense(...)`: a Keras layer's forward pass, which reads
    its (trainable) weights. Not a method of an object held somewhere (`self.queue.dequeue()`,
    which may read a non-trainable table or nothing), nor an object built by anything else."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        scope = next((parent for _, parent in doc.ancestors(call) if isinstance(parent, ast.ClassDef)), None)
        name = func.attr
    elif isinstance(func, ast.Name):
        scope, name = doc.tree, func.id
    else:
        return False
    if scope is None:
        return False
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and any(
                (isinstance(t, ast.Attribute) and t.attr == name and isinstance(t.value, ast.Name) and t.value.id == "self")
                or (isinstance(t, ast.Name) and t.id == name) for t in node.targets):
            qual = doc.imports.qualname(node.value.func) or ""
            if qual.startswith(("keras.layers.", "keras.Sequential", "keras.Model", "keras.models.",
                                "tensorflow.keras.layers.", "tensorflow.keras.Sequential", "tensorflow.keras.Model")):
                return True
    return False


def _returned_grad(function: ast.FunctionDef) -> ast.AST | None:
    """The second element of `return y, grad`, as a def of the function's own body or a lambda."""
    defs = {stmt.name: stmt for stmt in function.body if isinstance(stmt, ast.FunctionDef)}
    for stmt in function.body:
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) == 2:
            second = stmt.value.elts[1]
            if isinstance(second, ast.Lambda):
                return second
            if isinstance(second, ast.Name) and second.id in defs:
                return defs[second.id]
    return None


def _takes_variables(grad: ast.AST) -> bool:
    args = grad.args
    return args.kwarg is not None or any(a.arg == "variables" for a in [*args.args, *args.kwonlyargs])


def _returns_none_for_variables(grad: ast.AST) -> bool:
    """Every result `grad` gives for the variables is None: `return dx, None`, `[None for v in
    variables]`, `[None] * len(variables)`."""
    results = [grad.body] if isinstance(grad, ast.Lambda) else \
        [n.value for n in ast.walk(grad) if isinstance(n, ast.Return) and n.value is not None]
    seconds = [r.elts[1] for r in results if isinstance(r, ast.Tuple) and len(r.elts) == 2]
    return bool(seconds) and len(seconds) == len(results) and all(map(_all_none, seconds))


def _all_none(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(map(_all_none, node.elts))
    if isinstance(node, ast.ListComp):
        return _all_none(node.elt)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _all_none(node.left) if isinstance(node.left, ast.List) else _all_none(node.right)
    return False


def drops_input_gradient(function: ast.AST, imports) -> bool:
    """A `@tf.custom_gradient` function whose `grad` returns None as its inputs' gradient
    (`return None`, `return None, [...]` beside the variables'): whatever its argument carried
    reaches nothing before it, since the custom gradient replaces the recorded operations."""
    if not is_custom_gradient_def(function, imports) or (grad := _returned_grad(function)) is None:
        return False
    results = [grad.body] if isinstance(grad, ast.Lambda) else \
        [n.value for n in ast.walk(grad) if isinstance(n, ast.Return)]
    if _takes_variables(grad):
        results = [r.elts[0] if isinstance(r, ast.Tuple) and len(r.elts) == 2 else r for r in results]
    return bool(results) and all(r is None or _all_none(r) for r in results)
