"""Jupyter notebooks as one Python source, and positions mapped between it and the cells.

The code cells are joined in order; every cell contributes exactly its own lines, so a line of
the joined source maps to one line of one cell. Each cell's IPython syntax is turned into Python
line for line (source/ipython.py: `%magic`, `!shell` and help lines become `pass`, a cell's
common indentation is removed as IPython removes it), so a magic inside a block still leaves the
block valid Python. The joined source is a `JoinedSource`: a str that also knows its cells, so
that a lint of it can treat a cell that does not parse on its own as IPython does (that cell
fails, the others run).
"""
from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..diagnostics import Edit, Span
from .ipython import CellPython, cell_python


class NotebookError(ValueError):
    """The text is not a notebook we can read (or an edit cannot be placed in one cell)."""


class JoinedSource(str):
    """The joined source of a notebook's code cells: the str every analysis reads, which also
    knows each cell's Python (`ipython.CellPython`) and the line where it starts.

    Everything the fix loop, the CLI and the server derive from a notebook passes through
    `join_cells`, so a lint always gets one of these for a notebook (a plain str otherwise)."""

    cells: tuple[CellPython, ...]
    first_lines: tuple[int, ...]

    def __new__(cls, cells: Sequence[CellPython]) -> "JoinedSource":
        self = super().__new__(cls, "".join(line for cell in cells for line in cell.lines))
        self.cells = tuple(cells)
        first_lines, line = [], 1
        for cell in self.cells:
            first_lines.append(line)
            line += len(cell.lines)
        self.first_lines = tuple(first_lines)
        return self

    def __reduce__(self):  # a str subclass with its own __new__: pickled by its cells (worker processes)
        return JoinedSource, (self.cells,)

    @property
    def broken(self) -> list[int]:
        """The cells whose Python does not parse on its own: IPython runs none of their lines."""
        return [index for index, cell in enumerate(self.cells) if not cell.parses]

    def cell_lines(self, index: int) -> range:
        """The joined-source lines of cell `index` (of the code cells)."""
        return range(self.first_lines[index], self.first_lines[index] + len(self.cells[index].lines))

    def line_of(self, line: int) -> tuple[int, int] | None:
        """(index of the cell holding joined-source `line`, 0-based line in that cell)."""
        index = cell_at(line, self.first_lines)
        if index is None or not 0 <= line - self.first_lines[index] < len(self.cells[index].lines):
            return None  # after the last line (cell_at skips empty cells: they hold no line)
        return index, line - self.first_lines[index]

    def indent_of(self, line: int) -> str:
        """The indentation the cell's dedent removed from this line ("" for most lines)."""
        found = self.line_of(line)
        return self.cells[found[0]].indents[found[1]] if found else ""


def cell_column(source: str, line: int, col: int) -> int:
    """A joined-source column as a column of the cell's own line (they differ in a dedented cell)."""
    return col + len(source.indent_of(line)) if isinstance(source, JoinedSource) else col


def edit_in_cell(edit: Edit, cell: CellPython, first_line: int) -> Edit:
    """A joined-source edit in the positions of the cell's own text.

    Raises NotebookError for an edit into a line whose IPython syntax was replaced, or one that
    adds or removes a line break in a dedented cell (it would have to re-indent)."""
    offset = first_line - 1
    line, end_line = edit.span.line - offset, edit.span.end_line - offset
    last_touched = end_line - 1 if end_line > line and edit.span.end_col == 0 else end_line
    if any(cell.transformed[n - 1] for n in range(line, min(last_touched, len(cell.lines)) + 1)):
        raise NotebookError(f"an edit at line {edit.span.line} changes IPython syntax")
    indents = cell.indents
    if any(indents):
        blank = line <= len(cell.lines) and not cell.lines[line - 1].strip()
        if end_line != line or "\n" in edit.new_text or "\r" in edit.new_text or (blank and edit.new_text.strip()):
            raise NotebookError(f"an edit at line {edit.span.line} would have to re-indent a dedented cell")
        shift = len(indents[line - 1]) if line <= len(indents) else 0
        return Edit(Span(line, edit.span.col + shift, end_line, edit.span.end_col + shift), edit.new_text)
    return Edit(Span(line, edit.span.col, end_line, edit.span.end_col), edit.new_text)


def writable_in_cells(edits: Sequence[Edit], source: str, *, shifted: bool = True) -> bool:
    """Every edit can be written into one cell's own text (`edit_in_cell` takes it); with
    `shifted=False`, also without shifting columns (for a writer that maps lines only)."""
    if not isinstance(source, JoinedSource):
        return True
    for edit in edits:
        index = cell_at(edit.span.line, source.first_lines)
        if index is None or not within_one_cell(edit.span, source.first_lines):
            return False
        cell = source.cells[index]
        try:
            edit_in_cell(edit, cell, source.first_lines[index])
        except NotebookError:
            return False
        if not shifted and any(cell.indents):
            return False
    return True


@dataclass(unsafe_hash=True)
class CodeCell:
    index: int           # position in the notebook's `cells` list
    first_line: int      # 1-based line of the joined source where the cell starts
    text: str            # the cell's source as written in the notebook
    python: CellPython   # the cell as Python, one line per line of `text`

    @property
    def line_count(self) -> int:
        return len(self.python.lines)


class Notebook:
    def __init__(self, text: str):
        self.data = _load(text)
        self.indent = _detect_indent(text)
        code = [(index, _cell_text(cell, index)) for index, cell in enumerate(self.data["cells"])
                if cell.get("cell_type") == "code"]
        self.source, first_lines = join_cells([text for _, text in code])
        self.cells = [CodeCell(index, first, text, python)
                      for (index, text), first, python in zip(code, first_lines, self.source.cells)]

    def cell_position(self, line: int, col: int) -> tuple[int, int, int]:
        """(cell index in the notebook, 1-based line in the cell, column in the cell's own line)
        of a joined position."""
        cell = self._cell_at(line)
        cell_line = line - cell.first_line + 1
        indents = cell.python.indents
        return cell.index, cell_line, col + (len(indents[cell_line - 1]) if cell_line <= len(indents) else 0)

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
            end_line = edit.span.end_line - cell.first_line + 1
            # An edit may end at column 0 just past the cell (it removed the cell's last line).
            if end_line > cell.line_count + 1 or (end_line == cell.line_count + 1 and edit.span.end_col):
                raise NotebookError(f"an edit at line {edit.span.line} spans two cells")
            out.setdefault(cell.index, []).append(edit_in_cell(edit, cell.python, cell.first_line))
        return out

    def cell_texts(self) -> dict[int, str]:
        return {cell.index: cell.text for cell in self.cells}


def join_cells(cell_texts: Sequence[str]) -> tuple[JoinedSource, list[int]]:
    """The cells as one Python source, and the 1-based line where each cell starts in it.

    Shared by .ipynb files and the language server's notebook documents.
    """
    source = JoinedSource([cell_python(text) for text in cell_texts])
    return source, list(source.first_lines)


def python_lines(cell_text: str) -> list[str]:
    """The cell as Python lines, each ending in a newline (source/ipython.py)."""
    return list(cell_python(cell_text).lines)


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


# Python's syntax errors end with theirs ("... after function definition on line 7") or say
# "(detected at line 7)".
_LINE_REFERENCE = re.compile(r"(?<= )(on line|at line|\(line) (\d+)(?=\W|$)")


def relabel_lines(message: str, cell_of_line: Callable[[int], tuple[int, int] | None]) -> str:
    """Messages say "on line 12" of the joined source; in a notebook say "in cell 4, line 2"."""
    def replace(match: re.Match) -> str:
        place = cell_of_line(int(match.group(2)))
        if place is None:
            return match.group(0)
        words = "(cell" if match.group(1) == "(line" else "in cell"
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
