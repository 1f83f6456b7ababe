"""Jupyter notebooks as one Python source, and positions mapped between it and the cells.

The code cells are joined in order; every cell contributes exactly its own lines, so a line of
the joined source maps to one line of one cell. IPython syntax (`%magic`, `%%cell magic`,
`!shell`, `obj?`) is replaced by `pass` at the same indentation: the line count stays, and a
magic inside a block still leaves the block valid Python.
"""
from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..diagnostics import Edit, Span
from .document import PARSE_FAILURES, parse
from .text import split_lines

_LINE_MAGIC = re.compile(r"^(\s*)(?:[%!]|\?|[\w.]+\s*=\s*[%!])")
_HELP = re.compile(r"^(\s*)[\w.\[\]()]+\?{1,2}\s*$")
# Cell magics whose body is still Python: analyse the body, blank only the magic line.
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}


class NotebookError(ValueError):
    """The text is not a notebook we can read (or an edit cannot be placed in one cell)."""


@dataclass(frozen=True)
class CodeCell:
    index: int        # position in the notebook's `cells` list
    first_line: int   # 1-based line of the joined source where the cell starts
    text: str         # the cell's source as written in the notebook

    @property
    def line_count(self) -> int:
        return len(split_lines(self.text))  # as many as python_lines gives the joined source


class Notebook:
    def __init__(self, text: str):
        self.data = _load(text)
        self.indent = _detect_indent(text)
        code = [(index, _cell_text(cell, index)) for index, cell in enumerate(self.data["cells"])
                if cell.get("cell_type") == "code"]
        self.source, first_lines = join_cells([text for _, text in code])
        self.cells = [CodeCell(index, first, text) for (index, text), first in zip(code, first_lines)]

    def cell_position(self, line: int, col: int) -> tuple[int, int, int]:
        """(cell index in the notebook, 1-based line in the cell, column) of a joined position."""
        cell = self._cell_at(line)
        return cell.index, line - cell.first_line + 1, col

    def cell_of_line(self, line: int) -> tuple[int, int] | None:
        """(1-based cell number in the notebook, 1-based line in that cell), for messages."""
        try:
            index, cell_line, _ = self.cell_position(line, 0)
        except NotebookError:
            return None
        return index + 1, cell_line

    def _cell_at(self, line: int) -> CodeCell:
        for cell in self.cells:
            if cell.first_line <= line < cell.first_line + cell.line_count:
                return cell
        last = next((cell for cell in reversed(self.cells) if cell.line_count), None)
        if last is not None and line == last.first_line + last.line_count:
            return last  # the end of the source: an edit appending to the last cell
        raise NotebookError(f"line {line} is not in any code cell")

    def to_cell_edits(self, edits: Sequence[Edit]) -> dict[int, list[Edit]]:
        """Edits in joined-source positions, regrouped per cell index in cell positions."""
        out: dict[int, list[Edit]] = {}
        for edit in edits:
            cell = self._cell_at(edit.span.line)
            offset = cell.first_line - 1
            end_line = edit.span.end_line - offset
            # An edit may end at column 0 just past the cell (it removed the cell's last line).
            if end_line > cell.line_count + 1 or (end_line == cell.line_count + 1 and edit.span.end_col):
                raise NotebookError(f"an edit at line {edit.span.line} spans two cells")
            span = Span(edit.span.line - offset, edit.span.col, end_line, edit.span.end_col)
            out.setdefault(cell.index, []).append(Edit(span, edit.new_text))
        return out

    def cell_texts(self) -> dict[int, str]:
        return {cell.index: cell.text for cell in self.cells}


def join_cells(cell_texts: Sequence[str]) -> tuple[str, list[int]]:
    """The cells as one Python source, and the 1-based line where each cell starts in it.

    Shared by .ipynb files and the language server's notebook documents.
    """
    pieces: list[str] = []
    first_lines = []
    for text in cell_texts:
        first_lines.append(len(pieces) + 1)
        pieces.extend(python_lines(text))
    return "".join(pieces), first_lines


def cell_at(line: int, first_lines: Sequence[int]) -> int | None:
    """The index of the cell holding joined-source `line` (an empty cell holds no line)."""
    index = bisect.bisect_right(first_lines, line) - 1
    return index if index >= 0 else None


def within_one_cell(span: Span, first_lines: Sequence[int]) -> bool:
    """The span starts and ends in one cell (it may end at column 0 just past the cell)."""
    index = cell_at(span.line, first_lines)
    if index is None:
        return False
    if index + 1 == len(first_lines):
        return True
    following = first_lines[index + 1]
    return span.end_line < following or (span.end_line == following and span.end_col == 0)


_LINE_REFERENCE = re.compile(r"(?<= )(on line|\(line) (\d+)(?=\W)")


def relabel_lines(message: str, cell_of_line: Callable[[int], tuple[int, int] | None]) -> str:
    """Messages say "on line 12" of the joined source; in a notebook say "in cell 4, line 2"."""
    def replace(match: re.Match) -> str:
        place = cell_of_line(int(match.group(2)))
        if place is None:
            return match.group(0)
        words = "in cell" if match.group(1) == "on line" else "(cell"
        return f"{words} {place[0]}, line {place[1]}"

    return _LINE_REFERENCE.sub(replace, message)


def _load(text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"invalid notebook JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("invalid notebook: no \"cells\" list at the top level")
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict):
            raise NotebookError(f"invalid notebook: cell {index + 1} is not an object")
    return data


def _cell_text(cell: dict, index: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    if isinstance(source, str):
        return source
    raise NotebookError(f"invalid notebook: cell {index + 1} has a source that is not text")


def _detect_indent(text: str) -> int:
    match = re.match(r"\{\r?\n( +)\S", text)
    return len(match.group(1)) if match else 1


def python_lines(cell_text: str) -> list[str]:
    """The cell as Python lines, each ending in a newline, IPython syntax replaced by `pass`."""
    # Split where Python splits (a lone "\r" ends a line too), not at "\n" only: a cell written
    # with "\r" endings otherwise counts as one line here and several for `ast`, and every
    # position after it (diagnostics, fix edits) lands in the wrong line or cell. Found by fuzzing.
    lines = [line.rstrip("\r\n") + "\n" for line in split_lines(cell_text)]
    if not lines:
        return []
    magic = re.match(r"\s*%%(\w+)", lines[0])
    if magic:
        keep_body = magic.group(1) in _PYTHON_CELL_MAGICS
        return ["pass\n"] + (lines[1:] if keep_body else ["\n"] * (len(lines) - 1))
    if _parses("".join(lines)):
        return lines  # valid Python: `%` or `?` lines are operators or inside strings
    return [_without_ipython(line) for line in lines]


def _without_ipython(line: str) -> str:
    match = _LINE_MAGIC.match(line) or _HELP.match(line)
    return f"{match.group(1)}pass\n" if match else line


def _parses(source: str) -> bool:
    try:
        parse(source)
    except PARSE_FAILURES:  # a cell nested too deeply for Python's parser too (found by fuzzing)
        return False
    return True
