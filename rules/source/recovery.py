"""Half-typed text made parsable: the lines Python complains about are blanked, the rest kept.

An editor's text does not parse most of the time. Blanking the offending lines (each becomes
`pass` at its indentation, so a block whose only statement was being typed stays a block) lets
the analysis see everything else at its real position.
"""
from __future__ import annotations

import ast
import re

from .document import compile_only
from .text import LINE_BREAK

# Blanking more lines than this rarely recovers anything worth showing, and each try is a parse.
MAX_RECOVERY_ATTEMPTS = 8


def parse_error(source: str, display: str = "<unknown>") -> tuple[int, int, str] | None:
    """(1-based line, column, message) of the first syntax error, or None when `source` parses."""
    try:
        compile_only(source, display)
    except SyntaxError as error:
        return error.lineno or 1, max((error.offset or 1) - 1, 0), f"SyntaxError: {error.msg}"
    except ValueError as error:  # e.g. "source code string cannot contain null bytes"
        return 1, 0, f"SyntaxError: {error}"
    except (RecursionError, MemoryError):  # CPython's own parser gives up on very deep nesting
        return 1, 0, "SyntaxError: too deeply nested for Python's parser"
    return None


def recover(source: str) -> tuple[str, frozenset[int]] | None:
    """`source` made parsable by blanking the lines Python complains about, and those lines.

    Every line that is not blanked keeps its text and position. None when a few attempts do not
    give a parsable text.
    """
    if "\x00" in source:
        return None
    texts = LINE_BREAK.split(source)
    endings = LINE_BREAK.findall(source)
    blanked: set[int] = set()
    for _ in range(MAX_RECOVERY_ATTEMPTS + 1):
        text = _joined(texts, endings)
        error = parse_error(text)
        if error is None:
            return text, frozenset(blanked)
        line = _line_to_blank(error[0], texts, blanked)
        if line is None:
            return None
        indent = re.match(r"[ \t]*", texts[line - 1]).group()
        texts[line - 1] = f"{indent}pass" if texts[line - 1].strip() else texts[line - 1]
        blanked.add(line)
    return None


def _joined(texts: list[str], endings: list[str]) -> str:
    return "".join(text + ending for text, ending in zip(texts, endings)) + texts[-1]


def _line_to_blank(line: int, texts: list[str], blanked: set[int]) -> int | None:
    """The reported line, or when it is already blank(ed), the nearest non-blank line above it."""
    line = min(max(line, 1), len(texts))
    while line >= 1 and (line in blanked or not texts[line - 1].strip()):
        line -= 1
    return line if line >= 1 else None


def unreliable_lines(tree: ast.Module, blanked: frozenset[int]) -> frozenset[int]:
    """The lines of every scope that holds a blanked line (module-level code is one scope): a
    blanked line can change what the rest of its scope means."""
    definitions = [(node.lineno, node.end_lineno) for node in tree.body
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    in_definition = {line for start, end in definitions for line in range(start, end + 1)}
    lines: set[int] = set()
    for line in blanked:
        hits = [(start, end) for start, end in definitions if start <= line <= end]
        if hits:
            lines.update(range(hits[0][0], hits[0][1] + 1))
        else:
            last = max(tree.body[-1].end_lineno, *blanked) if tree.body else max(blanked)
            lines.update(n for n in range(1, last + 1) if n not in in_definition)
    return frozenset(lines)
