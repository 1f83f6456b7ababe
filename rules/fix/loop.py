"""The one fix loop: apply fixes, analyse again, until nothing changes.

A fix may uncover the next break (the `.numpy()` gone, the `tf.round` under it shows), so fixing
is a loop. The CLI's `--fix`, the server's fix-all and the tests all run `fix_until_stable`; what
differs between them is only the text being fixed, a `FixTarget`: a Python file, a notebook's
JSON, or a notebook's cells as an editor holds them (one text per cell).
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..diagnostics import Diagnostic, Edit, Fix, Span
from ..source.notebook import Notebook, NotebookError, cell_at, join_cells, within_one_cell
from ..source.text import newline_of, split_lines
from .edits import apply_edits, chosen_fix, non_conflicting_edits, non_conflicting_fixes, with_newline

MAX_FIX_ROUNDS = 10  # a fix may uncover the next break; a loop of fixes undoing each other stops


class FixTarget(Protocol):
    @property
    def source(self) -> str:
        """The Python program the analysis sees (positions of fixes are in it)."""

    @property
    def newline(self) -> str:
        """The line ending fix edits must write."""

    def applied(self, fixes: Sequence[Fix]) -> tuple["FixTarget", int]:
        """The target with the fixes that fit and do not conflict applied, and how many that was."""


@dataclass(unsafe_hash=True)
class FixOutcome:
    target: FixTarget
    fixed: int                       # fixes applied, over all rounds
    diagnostics: list[Diagnostic]    # what remains, positions in the fixed source


def fix_until_stable(target: FixTarget, diagnose: Callable[[str], Sequence[Diagnostic]], *,
                     unsafe: bool = False, max_rounds: int = MAX_FIX_ROUNDS) -> FixOutcome:
    """Apply each finding's chosen fix (`chosen_fix`), re-analyse, repeat until nothing changes."""
    fixed = 0
    diagnostics = list(diagnose(target.source))
    for _ in range(max_rounds):
        fixes = [with_newline(fix, target.newline) for d in diagnostics if (fix := chosen_fix(d, unsafe))]
        new, applied = target.applied(fixes)
        if not applied or new.source == target.source:
            break
        target, fixed = new, fixed + applied
        diagnostics = list(diagnose(target.source))
    return FixOutcome(target, fixed, diagnostics)


@dataclass(unsafe_hash=True)
class PythonText:
    """A Python file's text."""

    text: str

    @property
    def source(self) -> str:
        return self.text

    @property
    def newline(self) -> str:
        return newline_of(self.text)

    def applied(self, fixes: Sequence[Fix]) -> tuple["PythonText", int]:
        chosen = non_conflicting_fixes(fixes)
        return PythonText(apply_edits(self.text, non_conflicting_edits(chosen))), len(chosen)


@dataclass(unsafe_hash=True)
class CellTexts:
    """A notebook's code cells as separate texts (the editor's cell documents), analysed joined.

    Fixes are applied to each cell's own text, so a fix that adds lines (an import) never shifts
    another cell's positions."""

    texts: tuple[str, ...]

    @property
    def source(self) -> str:
        return join_cells(self.texts)[0]

    @property
    def newline(self) -> str:
        return "\n"  # the joined cells always end lines with "\n"

    def applied(self, fixes: Sequence[Fix]) -> tuple["CellTexts", int]:
        first_lines = join_cells(self.texts)[1]
        chosen = non_conflicting_fixes([fix for fix in fixes if fits_in_one_cell(fix, first_lines)])
        per_cell: dict[int, list[Edit]] = {}
        for edit in non_conflicting_edits(chosen):
            index = cell_at(edit.span.line, first_lines)
            shift = first_lines[index] - 1
            span = Span(edit.span.line - shift, edit.span.col, edit.span.end_line - shift, edit.span.end_col)
            per_cell.setdefault(index, []).append(Edit(span, edit.new_text))
        texts = tuple(apply_edits(text, per_cell[i]) if i in per_cell else text for i, text in enumerate(self.texts))
        return CellTexts(texts), len(chosen)


@dataclass(unsafe_hash=True)
class NotebookJson:
    """An .ipynb file's JSON text: fixes are written back into its code cells."""

    text: str

    @property
    def notebook(self) -> Notebook:
        return Notebook(self.text)

    @property
    def source(self) -> str:
        return self.notebook.source

    @property
    def newline(self) -> str:
        return "\n"  # notebook cells always use "\n"

    def applied(self, fixes: Sequence[Fix]) -> tuple["NotebookJson", int]:
        notebook = self.notebook
        chosen = non_conflicting_fixes([fix for fix in fixes if _fits_in_cells(notebook, fix)])
        if not chosen:
            return self, 0
        return NotebookJson(notebook_with_edits(notebook, non_conflicting_edits(chosen))), len(chosen)


def notebook_with_edits(notebook: Notebook, edits: Sequence[Edit]) -> str:
    """The notebook JSON with the edits applied to its cells; everything else is kept."""
    data = copy.deepcopy(notebook.data)
    texts = notebook.cell_texts()
    for index, cell_edits in notebook.to_cell_edits(edits).items():
        new_text = apply_edits(texts[index], cell_edits)
        data["cells"][index]["source"] = split_lines(new_text)  # a list of lines, as Jupyter writes
    return json.dumps(data, indent=notebook.indent, ensure_ascii=False) + "\n"


def _fits_in_cells(notebook: Notebook, fix: Fix) -> bool:
    try:
        notebook.to_cell_edits(fix.edits)
    except NotebookError:
        return False  # an edit across two cells cannot be written back
    return True


def fits_in_one_cell(fix: Fix, first_lines: Sequence[int]) -> bool:
    """Every edit lies inside one cell (a notebook fix cannot straddle two cells)."""
    return all(within_one_cell(edit.span, first_lines) for edit in fix.edits)
