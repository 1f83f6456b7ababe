"""Opacity: hiding a part of a program behind a function nobody can see never adds a finding.

A variant P' of a program P makes one part of it unknown to the analyzer, by text edits that
keep every line where it was:

* `expr`, `callee`, `result`, `argument`: one expression `e` becomes `_opaque(e)` (any
  expression; `callee` is the function of a call, `result` a call, `argument` what a call is
  given), where `from opaque_helpers import _opaque` names a module nobody has;
* `helper`, `class`: one function, method or class of the program is imported from that module
  instead of defined (its body, its decorators, gone).

`_opaque` may be the identity, and the missing module may define the helper as the program did:
so a finding P' has and P has not (same code, same line of the original) rests on no proof. The
comparison is `Findings(P') ⊆ Findings(P)`, by code and line.

The variants are spliced into the original text by the byte offsets of its syntax nodes; the
import goes after the module's `from __future__` imports, which moves the lines below it down
by one (`Variant.original_line` maps them back). Nothing here runs the analysed code or imports
TensorFlow.
"""
from __future__ import annotations

import ast
import builtins
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .text import SourceText, call_parenthesised, import_line, with_import

OPAQUE_MODULE = "opaque_helpers"
OPAQUE = "_opaque"
IMPORT = f"from {OPAQUE_MODULE} import {OPAQUE}"

Finding = tuple[str, int]  # (code, 1-based line in the original program)


@dataclass(frozen=True)
class Variant:
    kind: str           # expr, callee, result, argument, helper, class
    line: int           # where the hidden part starts, in the original
    hidden: str         # the hidden part as written (its first line)
    source: str         # the variant's text
    import_after: int   # the original lines after this one are one further down in `source`

    def original_line(self, line: int) -> int:
        return line - 1 if line > self.import_after + 1 else line

    def describe(self) -> str:
        return f"{self.kind}@{self.line}: {self.hidden}"


@dataclass(frozen=True)
class Violation:
    name: str                 # the program
    variant: Variant
    added: frozenset[Finding]

    def describe(self) -> str:
        added = " ".join(f"{code}@{line}" for code, line in sorted(self.added, key=lambda f: (f[1], f[0])))
        return f"{self.name}: {self.variant.describe()} adds {added}"


def _not_wrapped(tree: ast.Module) -> set[int]:
    """Expressions `_opaque(...)` cannot stand for: annotations, f-string parts, docstrings,
    targets (a `Store`/`Del` context), starred and slice syntax."""
    skip: set[int] = set()

    def under(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            under(node)
        elif isinstance(node, ast.arg):
            under(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            under(node.returns)
        elif isinstance(node, ast.AnnAssign):
            under(node.annotation)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, (ast.Starred, ast.Slice)):
            skip.add(id(node))
        elif isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            skip.add(id(node))
        elif isinstance(node, (ast.MatchValue, ast.MatchSingleton, ast.MatchClass, ast.MatchMapping)):
            under(node)
    return skip


def _expression_kinds(tree: ast.Module) -> dict[int, str]:
    kinds: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            kinds[id(node.func)] = "callee"
            for arg in node.args:
                kinds.setdefault(id(arg), "argument")
            for keyword in node.keywords:
                kinds.setdefault(id(keyword.value), "argument")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            kinds.setdefault(id(node), "result")
    return kinds


def _definitions(tree: ast.Module) -> Iterator[ast.AST]:
    """The functions, methods and classes another module could define as they are: those whose
    free names are all imports or builtins (one reading the module's `model`, or the locals of a
    function it is nested in, would read something else from another module)."""
    importable = _imported_names(tree) | set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _free_names(node) <= importable:
            yield node


def _imported_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def _free_names(definition: ast.AST) -> set[str]:
    """The names a definition reads that it does not bind itself (over-approximated: a name bound
    anywhere in it counts as bound everywhere in it)."""
    loaded, bound = set(), set()
    for node in ast.walk(definition):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not definition:
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            loaded |= set(node.names)
    if isinstance(definition, ast.ClassDef):
        loaded |= {n.id for base in definition.bases for n in ast.walk(base) if isinstance(n, ast.Name)}
    return loaded - bound


def variants(source: str) -> Iterator[Variant]:
    """Every variant of `source` (which must parse), in the order of the text."""
    tree = ast.parse(source)
    text = SourceText(source)
    after = import_line(tree)
    skip = _not_wrapped(tree) | call_parenthesised(tree)
    kinds = _expression_kinds(tree)
    found: list[tuple[int, int, Variant]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or id(node) in skip or node.lineno <= after:
            continue
        start, end = text.span(node)
        variant = text.splice([(start, start, f"{OPAQUE}("), (end, end, ")")])
        hidden = text.data[start:end].decode("utf-8", "replace").split("\n", 1)[0]
        found.append((node.lineno, node.col_offset, Variant(
            kinds.get(id(node), "expr"), node.lineno, hidden, with_import(variant, after, IMPORT), after)))
    for node in _definitions(tree):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        if first <= after or not text.alone(first, node.col_offset, node.end_lineno, node.end_col_offset):
            continue  # (not alone on its lines: `if x: def f(): ...`)
        indent = text.line_text(first)[:node.col_offset]
        start = text.offset(first, 0)
        end = text.offset(node.end_lineno, 0) + len(text.line_text(node.end_lineno).encode("utf-8"))
        blank = "\n" * (node.end_lineno - first)
        variant = text.splice([(start, end, f"{indent}from {OPAQUE_MODULE} import {node.name}{blank}")])
        kind = "class" if isinstance(node, ast.ClassDef) else "helper"
        found.append((first, node.col_offset, Variant(
            kind, first, text.line_text(node.lineno).strip(), with_import(variant, after, IMPORT), after)))
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, variant in found:
        try:
            ast.parse(variant.source)
        except (SyntaxError, ValueError):
            continue  # (`_opaque(yield x)`: not every expression can be an argument as written)
        yield variant


def sample(source: str, count: int, rng: random.Random) -> list[Variant]:
    """`count` variants of `source` drawn without replacement (all of them when there are fewer)."""
    every = list(variants(source))
    return every if len(every) <= count else rng.sample(every, count)


def findings_of(source: str, analyze: Callable[[str], Iterable[tuple[str, int]]]) -> frozenset[Finding]:
    return frozenset(analyze(source))


def added_findings(base: frozenset[Finding], variant: Variant,
                   analyze: Callable[[str], Iterable[tuple[str, int]]]) -> frozenset[Finding]:
    """What `variant` reports that the program it was made from does not."""
    found = {(code, variant.original_line(line)) for code, line in analyze(variant.source)}
    return frozenset(found - base)


def gradguard_findings(source: str) -> list[Finding]:
    """gradguard's findings on one text, by code and line, without jedi (nothing outside the text)."""
    from gradguard.rules import api

    return [(d.code, d.span.line) for d in api.findings(source)]
