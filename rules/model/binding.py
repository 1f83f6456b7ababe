"""Arguments bound to parameters, as Python binds them: one function for every call the engine
follows into a function of the file (`Calls.actuals`)."""
from __future__ import annotations

import ast

from .values import Value, evolve, join


def bind(signature: ast.arguments, params: list[ast.arg], args: list[Value], nodes: list[ast.expr] | None,
         keywords: dict[str, Value], position: int = 0) -> dict[int, Value]:
    """Each argument by the index in `params` of the parameter it is given to.

    `nodes`: the positional arguments as written, when they are (a starred one is spread);
    `keywords`: by name, `"**"` for a `**kw` spread; `position`: where the first positional
    argument goes (1 for a method called on its object). Positional arguments past the named
    parameters go to `*args` (a tuple of them), unknown keywords to `**kwargs`. A starred argument
    of unknown length (`f(*a)`) and a `**kw` spread may be any parameter from there on: each of
    those is given all of it. A parameter given nothing is left out."""
    index_of = {id(p): i for i, p in enumerate(params)}
    positional = len(signature.posonlyargs) + len(signature.args)
    given: dict[int, list[Value]] = {}
    extras: list[Value] = []
    rest: Value | None = None
    for node, value in zip(nodes or [None] * len(args), args):
        starred = isinstance(node, ast.Starred)
        if rest is not None or starred and value.items is None:
            rest = value if rest is None else join([rest, value])
            continue
        for item in value.items if starred else (value,):
            (given.setdefault(position, []) if position < positional else extras).append(item)
            position += 1
    if rest is not None:
        for index in range(position, positional):
            given.setdefault(index, []).append(rest)
    if signature.vararg is not None and (extras or rest is not None):
        spread = join([*extras, *([rest] if rest is not None else [])])
        given[index_of[id(signature.vararg)]] = [spread if rest is not None else evolve(spread, items=tuple(extras))]
    named = {p.arg: i for i, p in enumerate(params) if p is not signature.vararg and p is not signature.kwarg}
    double = [index_of[id(signature.kwarg)]] if signature.kwarg is not None else []
    for name, value in keywords.items():
        if name == "**":
            targets = [*(i for i in named.values() if i not in given), *double]
        else:
            targets = [named[name]] if name in named else double
        for index in targets:
            given.setdefault(index, []).append(value)
    return {index: values[0] if len(values) == 1 else join(values) for index, values in given.items()}
