"""Refactoring invariance: a rewrite that keeps what a program does keeps gradguard's verdict.

Each rewrite changes one expression of a program into another that Python evaluates to the same
value, by text edits that keep every line where it was (tests/invariants/text.py):

| family | from | to |
| --- | --- | --- |
| `tuple` | `e` | `(e,)[0]` |
| `dict` | `e` | `{"value": e}["value"]` |
| `list_loop` | `e` | `[_v for _v in [e]][0]` |
| `thunk` | `e` | `(lambda: e)()` |
| `forwarding` | `f(...)` | `(lambda *a, **k: f(*a, **k))(...)` |
| `partial` | `f(...)` | `functools.partial(f)(...)` |
| `map` | `f(x)` | `list(map(f, [x]))[0]` |
| `getattr` | `o.m(...)` | `getattr(o, "m")(...)` |
| `chain` | two of the above, one inside the other |

`e` is an expression read (not a target, not in an annotation, an f-string, a class body, or a
`super()` call's reach; no walrus, `yield` or `await` inside one moved into a new scope). The
comparison is `Findings(P') == Findings(P)` by code and line: a finding only P' has is a claim
without proof; one only P has is a defect the rewrite hid (counted per family).
"""
from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from dataclasses import dataclass

from .text import SourceText, call_parenthesised, import_line, with_import

FUNCTOOLS = "import functools as _functools"


@dataclass(frozen=True)
class Rewrite:
    family: str
    line: int           # where the rewritten expression starts, in the original
    before: str         # the expression as written (its first line)
    source: str
    import_after: int

    def original_line(self, line: int) -> int:
        return line - 1 if line > self.import_after + 1 else line

    def describe(self) -> str:
        return f"{self.family}@{self.line}: {self.before}"


def _skipped(tree: ast.Module) -> tuple[set[int], set[int]]:
    """Expressions no rewrite may touch, and those that may not move into a new scope."""
    skip: set[int] = set()
    no_scope: set[int] = set()

    def under(node: ast.AST | None, into: set[int]) -> None:
        if node is not None:
            into.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            under(node, skip)
        elif isinstance(node, ast.arg):
            under(node.annotation, skip)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            under(node.returns, skip)
        elif isinstance(node, ast.AnnAssign):
            under(node.annotation, skip)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, (ast.Starred, ast.Slice)) or isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            skip.add(id(node))
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:  # a class body's names are not seen from a new scope in it
                if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    under(statement, no_scope)
        elif isinstance(node, (ast.MatchValue, ast.MatchSingleton, ast.MatchClass, ast.MatchMapping)):
            under(node, skip)
    for node in ast.walk(tree):
        if isinstance(node, ast.expr) and any(
                isinstance(inner, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await))
                or isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "super"
                for inner in ast.walk(node)):
            no_scope.add(id(node))
    return skip, no_scope


def _edits(family: str, node: ast.expr, text: SourceText) -> list[tuple[int, int, str]] | None:
    """The text edits of one rewrite of `node`, or None where it does not apply."""
    start, end = text.span(node)
    if family == "tuple":
        return [(start, start, "("), (end, end, ",)[0]")]
    if family == "dict":
        return [(start, start, '{"value": '), (end, end, '}["value"]')]
    if family == "list_loop":
        return [(start, start, "[_v for _v in ["), (end, end, "]][0]")]
    if family == "thunk":
        return [(start, start, "(lambda: "), (end, end, ")()")]
    if not isinstance(node, ast.Call):
        return None
    func_start, func_end = text.span(node.func)
    if family == "forwarding":
        return [(func_start, func_start, "(lambda *a, **k: "), (func_end, func_end, "(*a, **k))")]
    if family == "partial":
        return [(func_start, func_start, "_functools.partial("), (func_end, func_end, ")")]
    if family == "map" and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred):
        arg_start, arg_end = text.span(node.args[0])
        return [(start, start, "list(map("), (func_end, arg_start, ", ["), (arg_end, end, "]))[0]")]
    if family == "getattr" and isinstance(node.func, ast.Attribute):
        base_start, base_end = text.span(node.func.value)
        return [(func_start, func_start, "getattr("), (base_end, func_end, f', "{node.func.attr}")')]
    return None


def _nesting(edits: list[tuple[int, int, str]], node: ast.expr, text: SourceText, depth: int) -> list[int]:
    """Where each edit of a rewrite at `depth` (0 outside, 1 inside) goes among insertions at one
    offset: an outer rewrite opens before an inner one and closes after it."""
    start = text.span(node)[0]
    return [depth if at == start else -depth for at, _, _ in edits]


FAMILIES = ("tuple", "dict", "list_loop", "thunk", "forwarding", "partial", "map", "getattr")
NEW_SCOPE = {"list_loop", "thunk", "forwarding", "map"}


def rewrites(source: str, rng: random.Random | None = None, chained: bool = False) -> Iterator[Rewrite]:
    """Every one-step rewrite of `source` (which must parse); `chained`: also, for each, one more
    rewrite of an expression inside the first (drawn with `rng`)."""
    tree = ast.parse(source)
    text = SourceText(source)
    after = import_line(tree)
    skip, no_scope = _skipped(tree)
    skip |= call_parenthesised(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or id(node) in skip or node.lineno <= after:
            continue
        for family in FAMILIES:
            if family in NEW_SCOPE and id(node) in no_scope:
                continue
            edits = _edits(family, node, text)
            if edits is None:
                continue
            if chained and rng is not None:
                inner = [n for n in ast.walk(node) if n is not node and isinstance(n, ast.expr) and id(n) not in skip
                         and (n.lineno, n.col_offset) >= (node.lineno, node.col_offset)]
                inner = [n for n in inner if not any(s <= text.span(n)[0] < e or s < text.span(n)[1] <= e
                                                     for s, e, _ in edits if s != e)]
                if not inner:
                    continue
                second = rng.choice(inner)
                options = [f for f in FAMILIES if not (f in NEW_SCOPE and id(second) in no_scope)]
                more = _edits(rng.choice(options), second, text)
                if more is None:
                    continue
                edits, order = edits + more, _nesting(edits, node, text, 0) + _nesting(more, second, text, 1)
                family = f"chain:{family}"
            else:
                order = None
            found.append((node.lineno, node.col_offset, family, node, edits, order))
    found.sort(key=lambda item: (item[0], item[1], item[2]))
    for line, _, family, node, edits, order in found:
        try:
            changed = with_import(text.splice(edits, order), after, FUNCTOOLS)
            ast.parse(changed)
        except (SyntaxError, ValueError):
            continue
        start, end = text.span(node)
        before = text.data[start:end].decode("utf-8", "replace").split("\n", 1)[0]
        yield Rewrite(family, line, before, changed, after)


def changed_findings(base: frozenset, rewrite: Rewrite, analyze) -> tuple[frozenset, frozenset]:
    """What `rewrite` reports that the program does not (added), and the reverse (lost)."""
    found = frozenset((code, rewrite.original_line(line)) for code, line in analyze(rewrite.source))
    return found - base, base - found
