"""Building blocks for fixes: lossless edits of the user's source.

Expressions are re-parsed with libcst from their exact source segment, transformed, and
rendered back, so comments and formatting inside an argument survive a fix. Only the segment is
parsed, which keeps fixes cheap on large files.
"""
from __future__ import annotations

import ast
import re

from ..diagnostics import Edit, Fix, Safety, Span
from ..source.document import Document

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
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
    line = doc.ask(import_line)
    return "tf", [Edit(Span(line, 0, line, 0), "import tensorflow as tf" + doc.newline)]


def import_line(doc: Document) -> int:
    """Where a new import goes in the module: after the docstring, `__future__` and the other top
    imports (a question about the whole module: `doc.ask(import_line)`)."""
    line = 1
    for stmt in doc.tree.body:
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


def straight_through(doc: Document, call: ast.Call, value: ast.AST, op: str, name: str,
                     namespace: str | None = None) -> Fix:
    """`round(x)` → `x + tf.stop_gradient(tf.round(x) - x)`: rounded forward, identity backward.

    An operand that is more than a name is computed once, bound with `:=`: `model(x)` three times
    would run three forward passes (dropout would differ, batch-norm statistics update thrice).
    With a `namespace` (`ops` for `ops.ceil(x)`, keras.ops), the estimator is written with it: a
    KerasTensor of a functional model being built cannot go through TensorFlow functions."""
    alias, imports = (namespace, []) if namespace else tensorflow_alias(doc)
    x = doc.text(value)
    if isinstance(value, (ast.Name, ast.Attribute)) or _in_comprehension_iterable(doc, call):
        first = x if isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({x})"
        first = x = first
    else:
        bound = doc.ask(unused_name, "st_input")
        first, x = f"({bound} := {x})", bound
    text = f"({first} + {alias}.stop_gradient({alias}.{op}({x}) - {x}))"
    title = f"Use a straight-through estimator: `{name}` forward, identity gradient backward"
    return make_fix(title, Safety.UNSAFE, [replace(doc, call, text), *imports], preferred=True)


def unused_name(doc: Document, stem: str) -> str:
    """`stem`, or `stem2`, `stem3`, ...: a word the module's text does not contain, so no name it
    uses (`doc.ask(unused_name, stem)`; a search of the text, not a walk of every node)."""
    source = doc.source
    if not doc.contains(stem):
        return stem  # (most texts: a search in C, not a regular expression's)
    taken = {match.group() for match in re.finditer(rf"{re.escape(stem)}\d*", source)  # (\b makes it slow)
             if not _word_character(source, match.start() - 1) and not _word_character(source, match.end())}
    return next(name for name in (stem, *(f"{stem}{n}" for n in range(2, 1000))) if name not in taken)


def _word_character(text: str, index: int) -> bool:
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


def _in_comprehension_iterable(doc: Document, node: ast.AST) -> bool:
    """`:=` may not stand in a comprehension's iterable (`for y in ...`): a SyntaxError there."""
    return any(isinstance(parent, ast.comprehension) and parent.iter is child for child, parent in doc.ancestors(node))


def unwrap(doc: Document, call: ast.Call, inner: ast.AST, title: str) -> Fix:
    """`wrapper(x)` → `x`: the value itself keeps its gradient, so this is the preferred fix."""
    return make_fix(title, Safety.UNSAFE, [replace(doc, call, in_place_of(doc, call, inner))], preferred=True)


_BINARY = {ast.BitOr: 6, ast.BitXor: 7, ast.BitAnd: 8, ast.LShift: 9, ast.RShift: 9, ast.Add: 10, ast.Sub: 10,
           ast.Mult: 11, ast.Div: 11, ast.FloorDiv: 11, ast.Mod: 11, ast.MatMult: 11, ast.Pow: 13}
_ATOM = 15  # names, attributes, calls, subscripts, literals, displays


def _precedence(node: ast.AST) -> int:
    """How tightly an expression binds, in Python's grammar (higher binds tighter)."""
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)]
    if isinstance(node, ast.UnaryOp):
        return 4 if isinstance(node.op, ast.Not) else 12
    if isinstance(node, ast.Compare):
        return 5
    if isinstance(node, ast.BoolOp):
        return 3 if isinstance(node.op, ast.And) else 2
    if isinstance(node, ast.IfExp):
        return 1
    if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Tuple, ast.Starred, ast.GeneratorExp, ast.Yield,
                         ast.YieldFrom)):
        return 0
    if isinstance(node, ast.Await):
        return 14
    return _ATOM


def _needed(parent: ast.AST | None, child: ast.AST) -> int:
    """The least precedence an expression needs to stand where `child` stands in `parent`."""
    if isinstance(parent, ast.BinOp):
        own = _BINARY[type(parent.op)]
        right = parent.right is child
        # Left-associative: `a - (b - c)` keeps its parentheses; `**` is right-associative.
        return own + 1 if right != isinstance(parent.op, ast.Pow) else own
    if isinstance(parent, ast.UnaryOp):
        return _precedence(parent)
    if isinstance(parent, (ast.Compare, ast.BoolOp)):
        return _precedence(parent) + 1
    if isinstance(parent, ast.IfExp):
        return 2
    if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is child or \
            isinstance(parent, ast.Call) and parent.func is child or isinstance(parent, ast.Await):
        return _ATOM
    if isinstance(parent, (ast.Call, ast.List, ast.Set, ast.Dict, ast.Tuple, ast.keyword, ast.Subscript)):
        return 1  # an argument or an element: anything but a tuple, a lambda's siblings, ...
    return 0  # a statement's expression: anything goes


def in_place_of(doc: Document, replaced: ast.AST, inner: ast.AST) -> str:
    """The source of `inner`, written where `replaced` stood: in parentheses when it would bind
    less tightly there (`(w + x).numpy() * 2.0` must become `(w + x) * 2.0`, not `w + x * 2.0`)."""
    text = doc.text(inner)
    # A tuple's or generator's own parentheses are part of its source; other spans exclude theirs.
    own_parentheses = isinstance(inner, (ast.Tuple, ast.GeneratorExp)) and text.startswith("(")
    if own_parentheses or _precedence(inner) >= _needed(doc.parents.get(replaced), replaced):
        return text
    return f"({text})"
