"""One analysis unit — a Python document, or a notebook's code cells — and its results in LSP terms.

Everything here runs in the worker thread on immutable snapshots, so the event loop never waits
for it. A plain document is a unit of one part; a notebook is a unit of one part per code cell,
joined in order as one program (the model built in cell 1, the tape in cell 4).
"""
from __future__ import annotations

import bisect
import dataclasses
import functools
import time
import weakref
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

import attrs
from lsprotocol import types
from pygls.uris import from_fs_path

from gradguard.rules.diagnostics import Diagnostic, Fix, Safety, Severity, Span
from gradguard.rules.fix.edits import with_newline
from gradguard.rules.model.record import Recorder, recording  # a context variable, nothing of the engine
from gradguard.rules.project.config import Config
from gradguard.rules.source.notebook import (cell_at, cell_column, join_cells, relabel_lines, within_one_cell,
                                             writable_in_cells)
from gradguard.rules.source.text import newline_of

from . import publication
from .documents import Encoding, TextDocument

if TYPE_CHECKING:
    from gradguard.rules.lens.lens import Lens

# The analyzer (api, engine, rules, lens, fix loop) is imported by the first analysis, not when the
# server starts: `initialize` is answered before any of it is needed (tests/test_startup.py).

SOURCE = "gradguard"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


@dataclass(frozen=True)
class Part:
    """One document of a unit: its text as the client has it, and where it starts in the source."""

    uri: str
    version: int
    document: TextDocument  # a private copy: the live document keeps changing
    first_line: int         # 1-based line of the joined source where the part starts


@dataclass(frozen=True)
class Snapshot:
    target: str            # the document or notebook URI
    path: str              # file system path (or the URI) for per-file ignores and messages
    source: str            # the Python program analysed
    parts: tuple[Part, ...]
    notebook: bool
    config: Config
    encoding: Encoding
    generation: int = 0    # the server's settings generation when the snapshot was taken
    cell_numbers: tuple[int, ...] = ()  # notebooks: each part's 1-based position among all cells
    parser: object = None  # the target's incremental.IncrementalParser (fast pass only: one thread)
    lens: bool = True      # record the values for the lens (hover or inlay hints on for the target)
    related: bool = True   # the client accepts diagnostics with related information

    @property
    def versions(self) -> tuple[int, ...]:
        return tuple(part.version for part in self.parts)

    @property
    def first_lines(self) -> list[int]:
        return [part.first_line for part in self.parts]

    @functools.cached_property
    def newline(self) -> str:
        """The line ending fixes write: a notebook's cells join with "\n". Counted once per
        snapshot, not once per fix (each count reads the whole text)."""
        return "\n" if self.notebook else newline_of(self.source)

    def diagnose(self, source: str | None = None, resolver=None, budget=None) -> list[Diagnostic]:
        from gradguard.rules.api import lint_tolerant

        if resolver is not None:
            return lint_tolerant(self.source if source is None else source, self.path, self.config,
                                 resolver=resolver, budget=budget)
        parser = self.parser if source is None else None  # it follows this target's own text only
        if parser is not None and not self.notebook:
            parser.use_lines(self.source, self.parts[0].document.lines)  # (kept by the document, not split)
        return lint_tolerant(self.source if source is None else source, self.path, self.config, parser=parser)


def snapshot(target: str, path: str, documents: Sequence[TextDocument], notebook: bool, config: Config,
             encoding: Encoding, generation: int = 0, cell_numbers: Sequence[int] = (), parser=None,
             lens: bool = True, related: bool = True) -> Snapshot:
    # The copies share the line starts and lines (lists the live document replaces, never changes).
    copies = [TextDocument(d.uri, d.text, d.version, d.language_id, _starts=d.line_starts, _lines=d.lines)
              for d in documents]
    source, first_lines = join_texts([d.text for d in copies], notebook)
    parts = tuple(Part(d.uri, d.version, d, first) for d, first in zip(copies, first_lines))
    return Snapshot(target, path, source, parts, notebook, config, encoding, generation, tuple(cell_numbers), parser,
                    lens, related)


def join_texts(texts: Sequence[str], notebook: bool) -> tuple[str, list[int]]:
    if not notebook:
        return texts[0], [1]
    return join_cells(texts)


# ---------------------------------------------------------------------------------------------
# Results


@dataclass
class Result:
    snapshot: Snapshot
    diagnostics: list[Diagnostic]
    by_uri: dict[str, list[types.Diagnostic]]  # every part's URI, empty lists included
    cross_module: bool = False                 # from the jedi pass
    recorder: Recorder | None = None           # the recorded values, when the lens is on
    seconds: float = 0.0                       # how long the analysis took

    @functools.cached_property
    def lens(self) -> Lens | None:
        """The values for hover and inlay hints, made from the recorder when first asked for (after
        the diagnostics are published: joining an editor's parts is not on a keystroke's path)."""
        if self.recorder is None or self.recorder.analysis is None:
            return None
        from gradguard.rules.lens.lens import Lens

        # (A join of parts keeps the sinks' statuses: the parts hold them anyway, and the first
        # hover would compute every sink's again, 7 ms of 14 on 5,000 lines.)
        return Lens(self.recorder.analysis, self.recorder.values, self.diagnostics).release_caches(
            statuses=not self.recorder.joined)


def analyze(snap: Snapshot, resolver=None, budget=None) -> Result:
    """The fast pass (this document alone), or with `resolver` the cross-module (jedi) pass. When
    the lens is on for the target (`snap.lens`), the analysis records its values (model/record.py)
    for hover and inlay hints (server/hover.py, server/inlay.py); else it records nothing (the
    recording costs some 6% of an edit's analysis) and the result has no lens."""
    _load_analyzer()
    started = time.perf_counter()
    with recording() if snap.lens else nullcontext() as recorder:
        found = snap.diagnose(resolver=resolver, budget=budget)
    if recorder is not None and recorder.document is not None:
        recorder.document.drop_caches()  # the lens computes again what it needs
    forms = _forms_of(snap.parser) if resolver is None and snap.parser is not None else LspForms()
    by_uri = forms.convert(found, snap)
    return Result(snap, found, by_uri, resolver is not None, recorder, time.perf_counter() - started)


class LspForms:
    """The LSP form of each diagnostic of a target's last fast pass, by the diagnostic itself. The
    parts of a document an edit did not touch keep their very `Diagnostic` objects
    (rules/report/parts.py), on the same lines of the same text, so their ranges, messages and
    fixes are what they were; only the fixes' document versions are new. Converting every
    diagnostic again cost a 5,000-line file's keystroke 1.7 ms."""

    def __init__(self) -> None:
        self._layout: tuple | None = None
        self._forms: dict[int, tuple[Diagnostic, str, types.Diagnostic]] = {}  # by id of the diagnostic
        self._in_json: set[int] = set()  # the ids of this object's LSP diagnostics in `publication`
        weakref.finalize(self, publication.forget, self._in_json)

    def convert(self, found: list[Diagnostic], snap: Snapshot) -> dict[str, list[types.Diagnostic]]:
        """The diagnostics of every part's URI (empty lists included)."""
        layout = (tuple(part.uri for part in snap.parts), tuple(snap.first_lines), snap.cell_numbers,
                  snap.encoding.kind, snap.newline, snap.related)
        old = self._forms if layout == self._layout else {}
        versions = {part.uri: part.version for part in snap.parts}
        forms: dict[int, tuple[Diagnostic, str, types.Diagnostic]] = {}
        by_uri: dict[str, list[types.Diagnostic]] = {part.uri: [] for part in snap.parts}
        for diagnostic in found:
            form = old.get(id(diagnostic))
            if form is not None and form[0] is diagnostic:
                form = (diagnostic, form[1], _with_versions(form[2], versions))
            else:
                located = to_lsp(diagnostic, snap)
                if located is None:
                    continue
                form = (diagnostic, *located)
            forms[id(diagnostic)] = form  # (the diagnostic kept alive with it: its id stays its own)
            by_uri[form[1]].append(form[2])
        kept = {id(lsp) for _, _, lsp in forms.values()}
        publication.forget(self._in_json - kept)
        for _, _, lsp in forms.values():
            publication.remember(lsp)
        self._in_json.clear()
        self._in_json.update(kept)
        self._layout, self._forms = layout, forms
        return by_uri


def _with_versions(lsp: types.Diagnostic, versions: dict[str, int]) -> types.Diagnostic:
    """`lsp` with its fixes' edits for the documents' current versions."""
    fixes = lsp.data["fixes"]
    if all(edit["version"] == versions[edit["uri"]] for fix in fixes for edit in fix["edits"]):
        return lsp
    data = {"fixes": [{**fix, "edits": [{**edit, "version": versions[edit["uri"]]} for edit in fix["edits"]]}
                      for fix in fixes]}
    new = attrs.evolve(lsp, data=data)
    publication.with_versions(lsp, new, data, versions)
    return new


# A target's forms live as long as its incremental parser (the fast pass's, one thread at a time).
_forms_by_parser: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _forms_of(parser) -> LspForms:
    forms = _forms_by_parser.get(parser)
    if forms is None:
        forms = _forms_by_parser[parser] = LspForms()
    return forms


def cross_module(snap: Snapshot, resolver, budget) -> Result | None:
    """The jedi pass, or None when it could not differ from the fast pass: the document imports
    only the libraries the analyzer knows, so jedi would be asked nothing (a parse, not a second
    analysis of the whole file)."""
    _load_analyzer()
    from gradguard.rules.api import reads_other_modules

    if not reads_other_modules(snap.source):
        return None
    return analyze(snap, resolver, budget)


@functools.cache
def _load_analyzer() -> None:
    """Import the analyzer, once, and then tune the garbage collector (`api.tune_garbage_collector`:
    it freezes what exists, now pygls's, lsprotocol's and the analyzer's modules)."""
    from gradguard.rules import api

    api.tune_garbage_collector()


def locate(span: Span, snap: Snapshot) -> tuple[Part, types.Range] | None:
    """The part a joined-source span starts in, and the span as a range of that part (clamped)."""
    first_lines = snap.first_lines
    index = cell_at(span.line, first_lines)
    if index is None:
        return None
    part = snap.parts[index]
    doc, offset = part.document, part.first_line
    # A dedented cell's columns are the joined source's plus what the dedent removed.
    start = doc.position_at(span.line - offset, cell_column(snap.source, span.line, span.col), snap.encoding)
    if not within_one_cell(span, first_lines):
        end = doc.position_at(doc.line_count, 0, snap.encoding)  # the end of this part
    else:
        end_col = cell_column(snap.source, span.end_line, span.end_col)
        end = doc.position_at(span.end_line - offset, end_col, snap.encoding)
    return part, types.Range(start, end)


def to_lsp(diagnostic: Diagnostic, snap: Snapshot) -> tuple[str, types.Diagnostic] | None:
    located = locate(diagnostic.span, snap)
    if located is None:
        return None
    from gradguard.rules.catalogue import registry
    from gradguard.rules.fix.loop import fits_in_one_cell

    part, range_ = located
    rule = registry.rule_by_code(diagnostic.code)
    message = relabel_lines(diagnostic.message, lambda line: _cell_of_line(line, snap)) if snap.notebook \
        else diagnostic.message
    return part.uri, types.Diagnostic(
        range=range_,
        message=message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=rule.doc_url()) if rule else None,
        source=SOURCE,
        related_information=(_related(diagnostic, snap) or None) if snap.related else None,
        data={"fixes": [fix_data(fix, snap) for fix in diagnostic.fixes
                        if fits_in_one_cell(fix, snap.first_lines) and writable_in_cells(fix.edits, snap.source)]},
    )


def _cell_of_line(line: int, snap: Snapshot) -> tuple[int, int] | None:
    index = cell_at(line, snap.first_lines)
    if index is None or index >= len(snap.cell_numbers):
        return None
    return snap.cell_numbers[index], line - snap.parts[index].first_line + 1


def _related(diagnostic: Diagnostic, snap: Snapshot) -> list[types.DiagnosticRelatedInformation]:
    out = []
    for related in diagnostic.related:
        if related.path:  # a helper in another module: its file, positions as they are there
            start = types.Position(related.span.line - 1, related.span.col)
            end = types.Position(related.span.end_line - 1, related.span.end_col)
            location = types.Location(from_fs_path(related.path) or related.path, types.Range(start, end))
            out.append(types.DiagnosticRelatedInformation(location, related.message))
            continue
        located = locate(related.span, snap)
        if located is not None:
            message = relabel_lines(related.message, lambda line: _cell_of_line(line, snap)) if snap.notebook \
                else related.message  # "on line N" of the joined cells, as the cell and its line
            out.append(types.DiagnosticRelatedInformation(types.Location(located[0].uri, located[1]), message))
    return out


# ---------------------------------------------------------------------------------------------
# Fixes: carried in each diagnostic's `data`, so a code action needs no new analysis


def fix_data(fix: Fix, snap: Snapshot) -> dict:
    fix = with_newline(fix, snap.newline)
    edits = []
    for edit in fix.edits:
        part, range_ = locate(edit.span, snap)
        edits.append({"uri": part.uri, "version": part.version, "range": range_json(range_), "newText": edit.new_text})
    return {"title": fix.title, "safe": fix.safety is Safety.SAFE, "preferred": fix.preferred, "edits": edits}


def range_json(range_: types.Range) -> dict:
    return {"start": {"line": range_.start.line, "character": range_.start.character},
            "end": {"line": range_.end.line, "character": range_.end.character}}


def fixed_texts(snap: Snapshot, unsafe: bool = False) -> list[str]:
    """Each part's text after the one fix loop (safe fixes only unless `unsafe`)."""
    from gradguard.rules.fix.loop import CellTexts, PythonText, fix_until_stable

    texts = [part.document.text for part in snap.parts]
    target = CellTexts(tuple(texts)) if snap.notebook else PythonText(texts[0])
    fixed = fix_until_stable(target, _cell_writable(snap.diagnose) if snap.notebook else snap.diagnose,
                             unsafe=unsafe).target
    return list(fixed.texts) if snap.notebook else [fixed.text]


def _cell_writable(diagnose):
    """`diagnose` without the fixes CellTexts cannot write: into a line whose IPython syntax was
    replaced, or into a dedented cell (CellTexts maps lines, not the columns a dedent shifted)."""
    def without_unwritable(source: str) -> list[Diagnostic]:
        return [dataclasses.replace(d, fixes=tuple(fix for fix in d.fixes
                                                   if writable_in_cells(fix.edits, source, shifted=False)))
                for d in diagnose(source)]
    return without_unwritable


def text_edit(document: TextDocument, new_text: str, encoding: Encoding) -> types.TextEdit | None:
    """One edit turning `document` into `new_text`: the changed middle, not the whole text."""
    old = document.text
    if old == new_text:
        return None
    prefix = 0
    limit = min(len(old), len(new_text))
    while prefix < limit and old[prefix] == new_text[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new_text[-1 - suffix]:
        suffix += 1
    # Never split a "\r\n": positions cannot point between its two characters.
    if 0 < prefix < len(old) and old[prefix - 1] == "\r" and old[prefix] == "\n":
        prefix -= 1
    end = len(old) - suffix
    if 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
        suffix -= 1
    start = _position_of_offset(document, prefix, encoding)
    end = _position_of_offset(document, len(old) - suffix, encoding)
    return types.TextEdit(types.Range(start, end), new_text[prefix:len(new_text) - suffix])


def _position_of_offset(document: TextDocument, offset: int, encoding: Encoding) -> types.Position:
    line = bisect.bisect_right(document.line_starts, offset) - 1
    return document.position_at(line, offset - document.line_starts[line], encoding)

