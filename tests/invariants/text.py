"""A source text edited by the positions of its syntax nodes, every line kept where it was: what
the invariants' variants are made with."""
from __future__ import annotations

import ast


class SourceText:
    """A source text addressed by the (line, byte column) positions of its syntax nodes."""

    def __init__(self, source: str):
        self.source = source
        self.data = source.encode("utf-8")
        self.starts = [0]
        for index, byte in enumerate(self.data):
            if byte == 0x0A:
                self.starts.append(index + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def line_text(self, line: int) -> str:
        end = self.starts[line] if line < len(self.starts) else len(self.data)
        return self.data[self.starts[line - 1]:end].decode("utf-8", "replace").rstrip("\r\n")

    def alone(self, line: int, col: int, end_line: int, end_col: int) -> bool:
        """Nothing but blanks before (line, col) on its line, and nothing but blanks or a comment
        after (end_line, end_col) on its."""
        before = self.data[self.starts[line - 1]:self.offset(line, col)]
        after = self.line_text(end_line).encode("utf-8")[end_col:].strip()
        return not before.strip() and (not after or after.startswith(b"#"))

    def splice(self, edits: list[tuple[int, int, str]], order: list[int] | None = None) -> str:
        """The text with each (start, end, replacement) made, by byte offsets of the original.
        Insertions at one offset come out in `order` (smaller first; by default as listed)."""
        data = self.data
        ranks = order if order is not None else list(range(len(edits)))
        for (start, end, text), _ in sorted(zip(edits, ranks), key=lambda e: (e[0][0], e[1]), reverse=True):
            data = data[:start] + text.encode("utf-8") + data[end:]
        return data.decode("utf-8")


def import_line(tree: ast.Module) -> int:
    """The line after which an import a variant needs goes: the last `from __future__` import's."""
    after = 0
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            after = statement.end_lineno
        elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
            break
    return after


def with_import(text: str, after: int, statement: str) -> str:
    """`text` with `statement` (an import) on a line of its own after line `after`."""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if after and after <= len(lines) and not lines[after - 1].endswith(("\n", "\r")):
        lines[after - 1] += newline
    return "".join(lines[:after]) + statement + newline + "".join(lines[after:])


def call_parenthesised(tree: ast.Module) -> set[int]:
    """Generator expressions that are a call's only argument (`sum(x for x in xs)`): their
    positions take in the call's parentheses, so no edit may wrap them as they are written."""
    return {id(node.args[0]) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.GeneratorExp)}
