"""The nodes under a syntax node, as `ast.walk` gives them, at half its cost.

`ast.walk` runs a generator per node (`iter_child_nodes`, `iter_fields`); the engine and the
rules walk each class and function of a file, some more than once, and a keystroke walks the
statement it changed. These read the fields directly.
"""
from __future__ import annotations

import ast


def walk(root: ast.AST) -> list[ast.AST]:
    """`root` and every node under it, breadth first: `list(ast.walk(root))`."""
    nodes = [root]
    for node in nodes:  # the list grows while it is read
        add_children(node, nodes)
    return nodes


def children(node: ast.AST) -> list[ast.AST]:
    """`list(ast.iter_child_nodes(node))`."""
    out: list[ast.AST] = []
    add_children(node, out)
    return out


def add_children(node: ast.AST, out: list[ast.AST]) -> None:
    """Appends `node`'s child nodes to `out`, in field order (as `ast.iter_child_nodes`)."""
    AST = ast.AST
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            out.extend(item for item in value if isinstance(item, AST))
        elif isinstance(value, AST):
            out.append(value)
