"""The server's own copy of the open documents and notebooks.

pygls keeps one too, but it splits lines with `str.splitlines` (which also breaks at form feeds
and U+2028, where LSP does not) and rewrites its position argument when a client sends a column
past the end of a line. Here lines end only at "\\r\\n", "\\r" or "\\n", as in LSP and in `ast`,
and out-of-range positions are clamped as the specification says: a column past the end of its
line means the end of the line, a line past the end of the document means the end of the text.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from lsprotocol import types

from gradguard.rules.source.text import LINE_BREAK, line_starts, split_lines


class Encoding:
    """Columns as the client counts them: UTF-16 code units unless it negotiated otherwise."""

    def __init__(self, kind: str = "utf-16"):
        self.kind = str(getattr(kind, "value", kind))
        self._codec = {"utf-8": "utf-8", "utf-32": None}.get(self.kind, "utf-16-le")
        self._width = {"utf-8": 1, "utf-16-le": 2}.get(self._codec, 1)

    def units(self, text: str) -> int:
        """The length of `text` in client units."""
        if self._codec is None or text.isascii():
            return len(text)
        return len(text.encode(self._codec, "surrogatepass")) // self._width

    def column_to_client(self, line: str, column: int) -> int:
        return self.units(line[:column])

    def column_from_client(self, line: str, units: int) -> int:
        """The character column of `units` client units into `line` (clamped to the line)."""
        if self._codec is None or line.isascii():
            return max(0, min(units, len(line)))
        count = 0
        for index, char in enumerate(line):
            if count >= units:
                return index
            count += self.units(char)
        return len(line)


@dataclass
class TextDocument:
    uri: str
    text: str
    version: int = 0
    language_id: str = "python"
    notebook_uri: str | None = None  # set for a notebook cell
    _starts: list[int] | None = field(default=None, repr=False)
    _lines: list[str] | None = field(default=None, repr=False)  # `split_lines(text)`, once asked for

    # -- lines ---------------------------------------------------------------------------------

    @property
    def line_starts(self) -> list[int]:
        """Offsets where each line starts; a document always has at least one (empty) line."""
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts

    @property
    def lines(self) -> list[str]:
        """The lines with their endings (`split_lines`), kept from one edit to the next: the
        analysis of a keystroke does not split the whole text again. Never changed in place."""
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def line(self, index: int) -> str:
        """Line `index` (0-based) without its line break; "" past the end."""
        starts = self.line_starts
        if not 0 <= index < len(starts):
            return ""
        end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        return self.text[starts[index]:end].rstrip("\r\n")

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    # -- positions -----------------------------------------------------------------------------

    def offset_at(self, position: types.Position, encoding: Encoding) -> int:
        """The text offset of a client position, clamped into the document."""
        if position.line < 0:
            return 0
        if position.line >= self.line_count:
            return len(self.text)
        line = self.line(position.line)
        return self.line_starts[position.line] + encoding.column_from_client(line, max(position.character, 0))

    def position_at(self, line: int, column: int, encoding: Encoding) -> types.Position:
        """A client position from a 0-based line and a character column, clamped likewise."""
        if line >= self.line_count:
            last = self.line_count - 1
            return types.Position(last, encoding.units(self.line(last)))
        text = self.line(max(line, 0))
        return types.Position(max(line, 0), encoding.column_to_client(text, min(max(column, 0), len(text))))

    # -- edits ---------------------------------------------------------------------------------

    def apply_change(self, change: types.TextDocumentContentChangeEvent, encoding: Encoding) -> None:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start = self.offset_at(change.range.start, encoding)
            end = self.offset_at(change.range.end, encoding)
            start, end = min(start, end), max(start, end)
            old = self.text
            self.text = old[:start] + change.text + old[end:]
            self._lines = _edited_lines(self._lines, self._starts, old, start, end, change.text)
            self._starts = _shifted_starts(self._starts, old, start, end, change.text)
        else:
            self.text = change.text
            self._starts = self._lines = None


def _near_a_carriage_return(old: str, start: int, end: int, new: str) -> bool:
    """A "\r" in the new text or next to the replaced one: it could join or split a "\r\n"."""
    return "\r" in new or "\r" in old[max(start - 1, 0):end + 1]


def _edited_lines(lines: list[str] | None, starts: list[int] | None, old: str, start: int, end: int,
                  new: str) -> list[str] | None:
    """The lines after `old[start:end]` became `new`: the lines the edit touched split again, the
    others kept (a new list); None (split again when asked) where a "\r" could join or split a
    "\r\n", as for the line starts."""
    if lines is None or starts is None or _near_a_carriage_return(old, start, end, new):
        return None
    first = bisect.bisect_right(starts, start) - 1  # the lines holding the edit's start and end
    last = bisect.bisect_right(starts, end) - 1
    until = starts[last + 1] if last + 1 < len(starts) else len(old)
    return [*lines[:first], *split_lines(old[starts[first]:start] + new + old[end:until]), *lines[last + 1:]]


def _shifted_starts(starts: list[int] | None, old: str, start: int, end: int, new: str) -> list[int] | None:
    """The line starts after `old[start:end]` became `new`: those before kept, the new text's own,
    those after moved; None (count again) where a "\r" could join or split a "\r\n"."""
    if starts is None or _near_a_carriage_return(old, start, end, new):
        return None
    first = bisect.bisect_right(starts, start)           # starts[:first] are at or before the edit
    after = bisect.bisect_right(starts, end, lo=first)   # starts[after:] are past its end
    delta = len(new) - (end - start)
    inside = [start + match.end() for match in LINE_BREAK.finditer(new)]
    return starts[:first] + inside + [offset + delta for offset in starts[after:]]


@dataclass
class Cell:
    uri: str
    kind: types.NotebookCellKind


@dataclass
class NotebookDocument:
    uri: str
    version: int
    cells: list[Cell]
    notebook_type: str = "jupyter-notebook"

    def apply_structure(self, change: types.NotebookCellArrayChange) -> None:
        new = [Cell(cell.document, cell.kind) for cell in change.cells or []]
        self.cells[change.start:change.start + change.delete_count] = new


class DocumentStore:
    """Open text documents (cells included) by URI, and notebooks by their own URI."""

    def __init__(self):
        self.documents: dict[str, TextDocument] = {}
        self.notebooks: dict[str, NotebookDocument] = {}

    def get(self, uri: str) -> TextDocument | None:
        return self.documents.get(uri)

    def open(self, item: types.TextDocumentItem, notebook_uri: str | None = None) -> TextDocument:
        document = TextDocument(item.uri, item.text, item.version, item.language_id, notebook_uri)
        self.documents[item.uri] = document
        return document

    def change(self, params: types.DidChangeTextDocumentParams, encoding: Encoding) -> TextDocument | None:
        document = self.documents.get(params.text_document.uri)
        if document is None:
            return None
        for change in params.content_changes:
            document.apply_change(change, encoding)
        document.version = params.text_document.version
        return document

    def close(self, uri: str) -> None:
        self.documents.pop(uri, None)

    def open_notebook(self, params: types.DidOpenNotebookDocumentParams) -> NotebookDocument:
        notebook = params.notebook_document
        cells = [Cell(cell.document, cell.kind) for cell in notebook.cells]
        self.notebooks[notebook.uri] = NotebookDocument(notebook.uri, notebook.version, cells, notebook.notebook_type)
        for item in params.cell_text_documents:
            self.open(item, notebook.uri)
        return self.notebooks[notebook.uri]

    def change_notebook(self, params: types.DidChangeNotebookDocumentParams, encoding: Encoding) -> NotebookDocument | None:
        notebook = self.notebooks.get(params.notebook_document.uri)
        if notebook is None:
            return None
        notebook.version = params.notebook_document.version
        cells = params.change.cells
        if cells is not None:
            self._change_cells(notebook, cells, encoding)
        return notebook

    def _change_cells(self, notebook: NotebookDocument, cells: types.NotebookDocumentCellChanges,
                      encoding: Encoding) -> None:
        if cells.structure is not None:
            notebook.apply_structure(cells.structure.array)
            for item in cells.structure.did_open or []:
                self.open(item, notebook.uri)
            for closed in cells.structure.did_close or []:
                self.close(closed.uri)
        kinds = {cell.document: cell.kind for cell in cells.data or []}
        for cell in notebook.cells:
            cell.kind = kinds.get(cell.uri, cell.kind)
        for content in cells.text_content or []:
            self.change(types.DidChangeTextDocumentParams(content.document, content.changes), encoding)

    def close_notebook(self, uri: str) -> NotebookDocument | None:
        notebook = self.notebooks.pop(uri, None)
        for cell in notebook.cells if notebook else []:
            self.close(cell.uri)
        return notebook

    def python_cells(self, notebook: NotebookDocument) -> list[tuple[int, TextDocument]]:
        """(1-based position among all cells, document) of the notebook's open Python code cells."""
        found = []
        for number, cell in enumerate(notebook.cells, 1):
            document = self.documents.get(cell.uri)
            if cell.kind == types.NotebookCellKind.Code and document is not None \
                    and document.language_id in ("python", ""):
                found.append((number, document))
        return found

    def target_of(self, uri: str) -> str:
        """The unit analysed for `uri`: its notebook for a cell, else the document itself."""
        document = self.documents.get(uri)
        return document.notebook_uri if document and document.notebook_uri else uri
