"""Where a loss function is used: the `compile(loss=...)` calls that name it, and the `fit` calls of
the models compiled so. `explain` at either explains the loss function, and its inlay hint goes
after the `compile` call."""
from __future__ import annotations

import ast

from ..model.facts import Sink, SinkKind
from ..source.document import Document


def loss_uses(doc: Document, sinks: list[Sink]) -> dict[int, list[ast.Call]]:
    """id of each loss-function sink → the `compile` calls naming it, then the `fit` calls of
    those models (same receiver, as written)."""
    losses = [s for s in sinks if s.kind is SinkKind.LOSS_FUNCTION]
    if not losses:
        return {}
    calls = [c for c in doc.nodes_of(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr in ("compile", "fit")]
    out: dict[int, list[ast.Call]] = {}
    compiled: dict[str, list[Sink]] = {}
    for call in calls:
        if call.func.attr != "compile":
            continue
        loss = next((k.value for k in call.keywords if k.arg == "loss"), call.args[1] if len(call.args) >= 2 else None)
        if loss is None:
            continue
        named = {n.id for n in ast.walk(loss) if isinstance(n, ast.Name)}
        lambdas = {id(n) for n in ast.walk(loss) if isinstance(n, ast.Lambda)}
        for sink in losses:
            if id(sink.node) in lambdas or (not isinstance(sink.node, ast.Lambda) and sink.callee in named) or \
                    _made_by(sink.node, named, doc):
                out.setdefault(id(sink), []).append(call)
                compiled.setdefault(doc.text(call.func.value), []).append(sink)
    for call in calls:
        if call.func.attr == "fit":
            for sink in compiled.get(doc.text(call.func.value), []):
                if call not in out[id(sink)]:
                    out[id(sink)].append(call)
    return out


def _made_by(function: ast.AST, names: set[str], doc: Document) -> bool:
    """`compile(loss=weighted(0.5))`: the loss is a function defined inside the factory named."""
    outer = next((parent for _, parent in doc.ancestors(function)
                  if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    return outer is not None and outer.name in names
