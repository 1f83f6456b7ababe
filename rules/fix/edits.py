"""Applying fixes to a text: which fixes can go together, and their edits written in."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..diagnostics import Diagnostic, Edit, Fix, Safety
from ..source.text import LINE_BREAK, split_lines


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits to `source`; edits are 1-based lines, character columns."""
    lines = split_lines(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line - 1 >= len(lines):
            return len(source)
        return starts[line - 1] + col

    out = source
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.col), reverse=True):
        begin = offset(edit.span.line, edit.span.col)
        end = offset(edit.span.end_line, edit.span.end_col)
        out = out[:begin] + edit.new_text + out[end:]
    return out


def apply_fixes(source: str, fixes: Sequence[Fix]) -> str:
    """Apply several fixes at once, skipping any whose edits overlap an earlier one's."""
    return apply_edits(source, non_conflicting_edits(fixes))


def non_conflicting_fixes(fixes: Sequence[Fix]) -> list[Fix]:
    """The fixes that can be applied together, in order: a fix that overlaps an earlier one waits."""
    taken: list[Edit] = []
    chosen: list[Fix] = []
    for fix in fixes:
        if any(_conflict(e, t) for e in fix.edits for t in taken):
            continue
        taken.extend(fix.edits)
        chosen.append(fix)
    return chosen


def non_conflicting_edits(fixes: Sequence[Fix]) -> list[Edit]:
    return _dedupe([edit for fix in non_conflicting_fixes(fixes) for edit in fix.edits])


def _conflict(a: Edit, b: Edit) -> bool:
    if a == b:
        return False  # the same edit twice (e.g. one import added for two fixes) is applied once
    return a.span.overlaps(b.span) or a.span == b.span


def _dedupe(edits: list[Edit]) -> list[Edit]:
    # Two fixes may both add `import tensorflow as tf` at the same place: keep one.
    seen: set[tuple] = set()
    out = []
    for edit in edits:
        key = (edit.span, edit.new_text)
        if key not in seen:
            seen.add(key)
            out.append(edit)
    return out


def with_newline(fix: Fix, newline: str) -> Fix:
    """Fix edits write "\\n"; in a CRLF file they must write "\\r\\n" like the rest of it."""
    if newline == "\n":
        return fix
    edits = tuple(Edit(e.span, LINE_BREAK.sub(newline, e.new_text)) for e in fix.edits)
    return dataclasses.replace(fix, edits=edits)


def chosen_fix(diagnostic: Diagnostic, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies: the preferred one, or the first safe one without `--unsafe-fixes`."""
    if unsafe:
        return diagnostic.fix
    return next((f for f in diagnostic.fixes if f.safety is Safety.SAFE), None)
