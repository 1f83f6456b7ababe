"""The analyzer's entry points: everything the CLI, the language server and the tests call.

One path for every caller: parse (`source`), interpret (`model`), report each enabled rule's
findings without the suppressed ones (`report`), and, for `fix_source`, the one fix loop (`fix`).
Nothing here imports TensorFlow or the analysed code.

`lint` is strict: a text that does not parse yields one E999 diagnostic, as a linter should.
`lint_tolerant` is for an editor, where the text is half-typed most of the time: the lines that
break the parse are blanked out (the rest keeps its positions) and the remainder is analysed, so
a typo in one function does not hide the breaks found in all the others.

A notebook's joined source (`source.notebook.JoinedSource`) is linted as IPython runs it, cell by
cell: a cell that does not parse on its own runs none of its lines, and the others still run. So
`lint` reports each such cell's E999 and analyses the notebook without it; `lint_tolerant`
recovers inside that cell only, and drops findings in that cell's scope, not the notebook's.
"""
from __future__ import annotations

import dataclasses
import gc
import os
import weakref
from collections.abc import Callable, Sequence

from .catalogue.registry import break_rules
from .diagnostics import Diagnostic, Severity, Span
from .fix.edits import apply_edits, apply_fixes, chosen_fix, non_conflicting_edits, non_conflicting_fixes, with_newline
from .model.conventions import DEFAULT, NameConventions
from .model.engine import analyze_document
from .project.config import Config
from .report.diagnose import diagnostics_for
from .report.suppression import visible
from .source.document import PARSE_FAILURES, Document, parse
from .source.notebook import JoinedSource
from .source.recovery import parse_error, recover, unreliable_lines
from .source.text import newline_of, split_lines

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:
    from .fix.loop import MAX_FIX_ROUNDS  # imported by __getattr__ below

__all__ = [
    "MAX_FIX_ROUNDS", "analyze", "findings", "apply_edits", "apply_fixes", "chosen_fix", "fix_source", "lint", "lint_tolerant",
    "newline_of", "non_conflicting_edits", "non_conflicting_fixes", "reads_other_modules", "syntax_error",
    "tune_garbage_collector",
    "with_newline",
]


def analyze(source: str, path: str = "<stdin>", *, enabled: Callable[[str], bool] | None = None,
            resolver=None, budget=None, parser=None, conventions: NameConventions = DEFAULT) -> list[Diagnostic]:
    """Diagnostics for one Python source text, sorted by position: the enabled rules' `findings`
    without those a suppression comment hides.

    `enabled(code)` selects rules (selection, ignores). A source that does not parse raises
    `SyntaxError` (see `findings`); `lint` reports it as E999.
    """
    found = findings(source, path, resolver=resolver, budget=budget, parser=parser, conventions=conventions)
    found = [d for d in found if enabled is None or enabled(d.code)]
    if not found:
        return found
    if parser is None:
        return visible(found, source, split_lines(source))
    lines = parser.lines_of(source)  # (the editor's: split once)
    return visible(found, source, lines, lambda word: parser.contains(word, lines, fold_case=True))


def findings(source: str, path: str = "<stdin>", *, resolver=None, budget=None, parser=None,
             conventions: NameConventions = DEFAULT) -> list[Diagnostic]:
    """Every rule's findings for one Python source text, before selection and suppression.

    `resolver` (model.inference.JediResolver) follows calls into other modules, within `budget`;
    `parser` (source.incremental.IncrementalParser, the editor's) re-parses only what changed.
    A source that does not parse raises `SyntaxError` (`source.document.PARSE_FAILURES`: also what
    CPython's parser raises when it gives up on deep nesting); code nested deeper than the
    engine's recursion follows raises `RecursionError`. `conventions`: what may be guessed from
    names (model/conventions.py; `[tool.gradguard]` sets them).
    """
    doc = Document(source, path, parser)
    doc.tree  # raises SyntaxError for the caller
    if parser is not None and resolver is None:  # an editor's fast pass: only the parts an edit touched
        cache = _part_caches.get(parser)
        if cache is None:
            from .report.parts import PartCache

            cache = _part_caches[parser] = PartCache()
        return cache.findings(doc, break_rules(), conventions)
    return diagnostics_for(analyze_document(doc, break_rules(), resolver, budget, conventions))


# An editor's document keeps its parts' findings as long as it keeps its incremental parser.
_part_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def reads_other_modules(source: str) -> bool:
    """Whether the analysis of `source` with a jedi resolver can learn anything the analysis
    without one does not: the text imports code besides the libraries the analyzer knows (the
    resolver's own first gate). True for a text that does not parse: a tolerant lint may recover."""
    try:
        return Document(source).imports.other_code
    except PARSE_FAILURES:
        return True


def lint(source: str, path: str | os.PathLike, config: Config = Config(), config_path=None, *,
         resolver=None, budget=None) -> list[Diagnostic]:
    """Enabled, unsuppressed diagnostics with configured severities; E999 if `source` does not parse.

    `config_path` is the path that per-file ignores match (defaults to `path`). `resolver` and
    `budget` (see model/inference.py) let the analysis follow calls into other modules. In a
    notebook, each cell that does not parse has its E999 and the other cells are analysed.
    """
    broken = source.broken if isinstance(source, JoinedSource) else []
    if broken:
        return _lint_without_cells(source, broken, str(path), config, config_path or path, resolver, budget)
    try:
        return _configured(source, str(path), config, config_path or path, resolver, budget)
    except PARSE_FAILURES as failure:  # parse first, ask why only when it fails: one parse, not two
        error = syntax_error(source)
        if error is not None:
            return [error]
        if isinstance(failure, RecursionError):
            return _too_deep(path)
        raise


def lint_tolerant(source: str, path: str | os.PathLike, config: Config = Config(), config_path=None, *,
                  resolver=None, budget=None, parser=None) -> list[Diagnostic]:
    """Like `lint`, but analyse what parses instead of reporting a syntax error.

    Findings in a scope around a blanked line are dropped (`source.recovery.unreliable_lines`),
    and so are fixes that touch a blanked line. When nothing can be recovered the result is empty.
    In a notebook, only the cells that do not parse are recovered, each on its own.
    """
    broken = source.broken if isinstance(source, JoinedSource) else []
    if broken:
        return _tolerant_without_cells(source, broken, str(path), config, config_path or path, resolver, budget)
    try:
        return _configured(source, str(path), config, config_path or path, resolver, budget, parser)
    except PARSE_FAILURES as failure:
        if parse_error(source) is None:
            if isinstance(failure, RecursionError):
                return _too_deep(path)
            raise  # not a syntax problem: an analyzer bug the caller must see
    recovered = recover(source)
    if recovered is None:
        return []
    parsable, blanked = recovered
    try:
        found = _configured(parsable, str(path), config, config_path or path, resolver, budget)
    except RecursionError:
        return _too_deep(path)
    unreliable = unreliable_lines(parse(parsable), blanked)
    return [_without_fixes_touching(d, blanked) for d in found if not _touches(d, unreliable)]


# Notebooks: the cells that do not parse on their own ------------------------------------------


def _lint_without_cells(source: JoinedSource, broken: list[int], display: str, config: Config, config_path,
                        resolver, budget) -> list[Diagnostic]:
    """Each broken cell's E999, and the findings of the other cells (the broken ones blanked)."""
    errors = [_cell_syntax_error(source, index) for index in broken]
    blanked = frozenset(line for index in broken for line in source.cell_lines(index))
    rest = _with_lines(source, {line: "\n" for line in blanked})
    try:
        found = _configured(rest, display, config, config_path, resolver, budget)
    except PARSE_FAILURES as failure:
        error = syntax_error(rest)  # the cells parse one by one but not joined
        if error is not None:
            return [*errors, error]
        if isinstance(failure, RecursionError):
            return errors + _too_deep(display)
        raise
    kept = [_without_fixes_touching(d, blanked) for d in found if not _touches(d, blanked)]
    return sorted([*errors, *kept], key=lambda d: (d.span, d.code))


def _cell_syntax_error(source: JoinedSource, index: int) -> Diagnostic:
    """The E999 of one cell parsed on its own, in joined-source positions and inside the cell."""
    cell, first = source.cells[index], source.first_lines[index]
    # Parsed at its place, so that the message's "on line N" is a joined line like every other.
    line, col, message = parse_error("\n" * (first - 1) + cell.text) or (first, 0, "SyntaxError")
    last = first + len(cell.lines) - 1
    if line < first:
        line, col = first, 0
    elif line > last:  # "expected an indented block" after a cell's last line: at its end
        line, col = last, len(cell.lines[-1]) - 1
    return Diagnostic("E999", Severity.ERROR, message, Span(line, col, line, col))


def _tolerant_without_cells(source: JoinedSource, broken: list[int], display: str, config: Config, config_path,
                            resolver, budget) -> list[Diagnostic]:
    """`lint_tolerant` for a notebook: each broken cell recovered on its own (the whole cell
    blanked when it cannot be), findings dropped only in the scope of its blanked lines."""
    replaced: dict[int, str] = {}
    blanked: set[int] = set()
    unreliable: set[int] = set()
    for index in broken:
        cell, lines = source.cells[index], source.cell_lines(index)
        recovered = recover(cell.text)
        if recovered is None:
            replaced.update({line: "\n" for line in lines})
            blanked.update(lines)
            unreliable.update(lines)
            continue
        text, cell_blanked = recovered
        replaced.update(zip(lines, split_lines(text)))
        blanked.update(lines.start + line - 1 for line in cell_blanked)
        unreliable.update(lines.start + line - 1 for line in unreliable_lines(parse(text), cell_blanked))
    try:
        found = _configured(_with_lines(source, replaced), display, config, config_path, resolver, budget)
    except PARSE_FAILURES as failure:
        if isinstance(failure, RecursionError):
            return _too_deep(display)
        return []  # the cells parse one by one but not joined: nothing to recover from
    return [_without_fixes_touching(d, frozenset(blanked)) for d in found if not _touches(d, frozenset(unreliable))]


def _with_lines(source: str, replaced: dict[int, str]) -> str:
    """`source` (every line ending in "\\n", as a joined source's do) with some lines replaced."""
    return "".join(replaced.get(number, line) for number, line in enumerate(split_lines(source), 1))


def _configured(source: str, display: str, config: Config, config_path, resolver=None, budget=None,
                parser=None) -> list[Diagnostic]:
    found = analyze(source, display, enabled=lambda code: config.enabled(code, config_path),
                    resolver=resolver, budget=budget, parser=parser, conventions=config.names)
    # (The same diagnostics where no severity is configured: a part's, reused after an edit, stay one.)
    return [d if (severity := config.severity_for(d.code, d.severity)) is d.severity
            else dataclasses.replace(d, severity=severity) for d in found]


def syntax_error(source: str, display: str = "<unknown>") -> Diagnostic | None:
    """The E999 of a text that does not parse. `display` should name no file: CPython reads the
    error's line from the named file to count its column, and the file's line is not the text's
    for a notebook (a line of its JSON), for stdin under --stdin-filename, or after a fix round."""
    error = parse_error(source, display)
    if error is None:
        return None
    line, col, message = error
    return Diagnostic("E999", Severity.ERROR, message, Span(line, col, line, col))


def _too_deep(path) -> list[Diagnostic]:
    """An expression nested beyond the analyzer's recursion limit: nothing is reported for the file."""
    import logging  # here: the rare file that needs it (logging brings threading and traceback)

    logging.getLogger("gradguard.analysis").warning(
        "%s: expressions nested too deeply to analyse; no findings for this file", path)
    return []


def _touches(diagnostic: Diagnostic, lines: frozenset[int]) -> bool:
    return _any_on(lines, [diagnostic.span, *(r.span for r in diagnostic.related)])


def _without_fixes_touching(diagnostic: Diagnostic, lines: frozenset[int]) -> Diagnostic:
    fixes = tuple(fix for fix in diagnostic.fixes if not _any_on(lines, [e.span for e in fix.edits]))
    return dataclasses.replace(diagnostic, fixes=fixes)


def _any_on(lines: frozenset[int], spans: list[Span]) -> bool:
    return any(span.line <= line <= span.end_line for span in spans for line in lines)


def fix_source(
    source: str,
    path: str = "<stdin>",
    *,
    unsafe: bool = False,
    enabled: Callable[[str], bool] | None = None,
    diagnose: Callable[[str], Sequence[Diagnostic]] | None = None,
    max_rounds: int | None = None,
) -> str:
    """The source after the fix loop (`fix.loop.fix_until_stable`): what `--fix` does to a file.

    `max_rounds` defaults to `MAX_FIX_ROUNDS`.

    `diagnose` replaces `analyze` (the server passes its syntax-tolerant lint).
    """
    diagnose = diagnose or (lambda text: analyze(text, path, enabled=enabled))
    from .fix.loop import MAX_FIX_ROUNDS, PythonText, fix_until_stable  # only what fixes imports the fix loop

    rounds = MAX_FIX_ROUNDS if max_rounds is None else max_rounds
    return fix_until_stable(PythonText(source), diagnose, unsafe=unsafe, max_rounds=rounds).target.source


def __getattr__(name: str):
    if name == "MAX_FIX_ROUNDS":  # PEP 562: re-exported without importing the fix loop
        from .fix.loop import MAX_FIX_ROUNDS

        return MAX_FIX_ROUNDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def tune_garbage_collector() -> None:
    """For a process that analyses much (the server, `check` on many files or a big one).

    An analysis allocates many short-lived objects; with the default thresholds the collector
    keeps re-scanning everything already alive (modules, syntax trees), measured at up to a third
    of a parse. Freeze what exists now and collect young objects less often; the analysis makes
    no long-lived cycles, so memory stays bounded."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
