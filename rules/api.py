"""The analyzer's entry points: everything the CLI and the language server call.

`analyze` never imports TensorFlow or the analysed code; it parses with `ast` and runs the
gradient data-flow model, then asks each enabled rule for diagnostics.
"""
from __future__ import annotations

import dataclasses
import gc
import re
from collections.abc import Callable, Sequence

from .diagnostics import Diagnostic, Edit, Fix, Safety
from .document import split_lines

MAX_FIX_ROUNDS = 10  # a fix may uncover the next break; a loop of fixes undoing each other stops

def analyze(source: str, path: str = "<stdin>", *, enabled: Callable[[str], bool] | None = None,
            resolver=None, budget=None, parser=None) -> list[Diagnostic]:
    """Diagnostics for one Python source text, sorted by position.

    `enabled(code)` filters rules (selection, ignores); suppression comments are applied here too.
    `resolver` (inference.JediResolver) follows calls into other modules, within `budget`;
    `parser` (incremental.IncrementalParser, the editor's) re-parses only what changed.
    A source that does not parse raises `SyntaxError` (`document.PARSE_FAILURES`: also what CPython's
    parser raises when it gives up on deep nesting); code nested deeper than the engine's
    recursion follows raises `RecursionError`. `lint` reports all of them (E999).
    """
    from .engine import analyze_source

    return analyze_source(source, path, enabled=enabled, resolver=resolver, budget=budget, parser=parser)


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


def fix_source(
    source: str,
    path: str = "<stdin>",
    *,
    unsafe: bool = False,
    enabled: Callable[[str], bool] | None = None,
    diagnose: Callable[[str], Sequence[Diagnostic]] | None = None,
    max_rounds: int = MAX_FIX_ROUNDS,
) -> str:
    """Apply fixes until none is left (a fix may uncover the next break): what `--fix` does.

    `diagnose` replaces `analyze` (the server passes its syntax-tolerant lint). Fixes write the
    source's own line ending.
    """
    diagnose = diagnose or (lambda text: analyze(text, path, enabled=enabled))
    newline = newline_of(source)
    for _ in range(max_rounds):
        fixes = [with_newline(fix, newline) for d in diagnose(source) if (fix := chosen_fix(d, unsafe))]
        fixed = apply_fixes(source, fixes) if fixes else source
        if fixed == source:
            break
        source = fixed
    return source


def newline_of(text: str) -> str:
    """The line ending most of `text` uses ("\\r\\n", "\\n", or "\\r" alone in old Mac files)."""
    if "\n" not in text and "\r" in text:
        return "\r"
    return "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"


def with_newline(fix: Fix, newline: str) -> Fix:
    """Fix edits write "\\n"; in a CRLF file they must write "\\r\\n" like the rest of it."""
    if newline == "\n":
        return fix
    edits = tuple(Edit(e.span, re.sub(r"\r\n|\r|\n", newline, e.new_text)) for e in fix.edits)
    return dataclasses.replace(fix, edits=edits)


def chosen_fix(diagnostic: Diagnostic, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies: the preferred one, or the first safe one without `--unsafe-fixes`."""
    if unsafe:
        return diagnostic.fix
    return next((f for f in diagnostic.fixes if f.safety is Safety.SAFE), None)


def tune_garbage_collector() -> None:
    """For a process that analyses much (the server, `check` on many files or a big one).

    An analysis allocates many short-lived objects; with the default thresholds the collector
    keeps re-scanning everything already alive (modules, syntax trees), measured at up to a third
    of a parse. Freeze what exists now and collect young objects less often; the analysis makes
    no long-lived cycles, so memory stays bounded."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
