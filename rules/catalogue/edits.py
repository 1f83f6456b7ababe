"""Building blocks for fixes: lossless edits of the user's source.

Expressions are re-parsed with libcst from their exact source segment, transformed, and
rendered back, so comments and formatting inside an argument survive a fix. Only the segment is
parsed, which keeps fixes cheap on large files.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..diagnostics import Edit, Fix, Safety, Span
from ..source.document import Document

if TYPE_CHECKING:
    import libcst as cst


def expression(doc: Document, node: ast.AST) -> cst.BaseExpression:
    """The libcst node for an `ast` expression, parsed from its own source text."""
    import libcst as cst  # here, not at the top: a check that renders no such fix never pays for it

    parsed = cst.parse_expression("(" + doc.text(node) + ")")
    return parsed.with_changes(lpar=[], rpar=[]) if hasattr(parsed, "lpar") else parsed


def render(node: cst.CSTNode) -> str:
    import libcst as cst

    return cst.Module([]).code_for_node(node)


def replace(doc: Document, node: ast.AST, new_text: str) -> Edit:
    return Edit(doc.span(node), new_text)


def tensorflow_alias(doc: Document) -> tuple[str, list[Edit]]:
    """The name `tensorflow` is imported as, adding `import tensorflow as tf` when missing."""
    alias = doc.imports.alias_for("tensorflow")
    if alias is not None:
        return alias, []
    line = _import_line(doc.tree)
    return "tf", [Edit(Span(line, 0, line, 0), "import tensorflow as tf" + doc.newline)]


def _import_line(tree: ast.Module) -> int:
    """Where a new import goes: after the docstring, `__future__` and the other top imports."""
    line = 1
    for stmt in tree.body:
        is_docstring = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
            stmt.value.value, str)
        if is_docstring or isinstance(stmt, (ast.Import, ast.ImportFrom)):
            line = (stmt.end_lineno or stmt.lineno) + 1
        else:
            break
    return line


def make_fix(title: str, safety: Safety, edits: list[Edit], preferred: bool = False) -> Fix:
    return Fix(title, safety, tuple(edits), preferred)


def wrap_call(doc: Document, node: ast.AST, function: str) -> tuple[str, list[Edit]]:
    """`x` → `tf.<function>(x)`, with the tensorflow import added when needed."""
    alias, imports = tensorflow_alias(doc)
    return alias, [replace(doc, node, f"{alias}.{function}({doc.text(node)})"), *imports]


def straight_through(doc: Document, call: ast.Call, value: ast.AST, op: str, name: str) -> Fix:
    """`round(x)` → `x + tf.stop_gradient(tf.round(x) - x)`: rounded forward, identity backward."""
    alias, imports = tensorflow_alias(doc)
    x = doc.text(value)
    if not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        x = f"({x})"
    text = f"({x} + {alias}.stop_gradient({alias}.{op}({x}) - {x}))"
    title = f"Use a straight-through estimator: `{name}` forward, identity gradient backward"
    return make_fix(title, Safety.UNSAFE, [replace(doc, call, text), *imports], preferred=True)


def unwrap(doc: Document, call: ast.Call, inner: ast.AST, title: str) -> Fix:
    """`wrapper(x)` → `x`: the value itself keeps its gradient, so this is the preferred fix."""
    return make_fix(title, Safety.UNSAFE, [replace(doc, call, doc.text(inner))], preferred=True)
