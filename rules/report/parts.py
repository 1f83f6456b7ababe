"""Findings part by part, each part's kept until an edit touches it: an edit costs its function.

`source/components.py` splits a module's top-level statements into parts that the analysis
cannot link (no name, class or method of one reaches the other). The findings of the module are
the union of its parts' findings, each part analysed as a module of its own statements and the
module's imports. An editor's `PartCache` (one per document, kept by its incremental parser)
remembers, for each part of the last text, the statements it was made of (the very syntax nodes:
the incremental parser keeps the nodes of every statement an edit did not touch), the context it
was analysed in, the questions it asked about the whole module (`Document.ask`) with their
answers, and its findings. After an edit, a part whose statements, context and answers are the
same keeps its findings; only the others are analysed again.

The results are the whole module's analysis, finding for finding: tests/test_incremental.py
replays random edits on the corpus and compares with a fresh analysis after each.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..model import record
from ..model.engine import analyze_document
from ..model.facts import Analysis
from ..model.library import COLLECTION_ADDERS, PREDICT_METHODS
from ..source.components import Names, components, is_shared, names_of, statement_text
from ..source.document import Document
from ..source.questions import ModuleQuestion
from ..source.walk import walk
from .diagnose import deduplicated, diagnostics_for


@dataclass(eq=False, repr=False)
class _Part:
    statements: tuple[ast.stmt, ...]  # the part's own statements (shared ones excluded), in order
    context: tuple                    # what every part depends on: imports, shared statements, settings
    asked: dict                       # the questions the analysis asked about the whole module
    diagnostics: list[Diagnostic]
    analysis: Analysis | None = None  # with its values, when analysed inside `record.recording()`
    values: dict | None = None
    shared_at: tuple | None = None    # the shared statements' lines, when a finding is on one of them


_ALIASING = (ast.Assign, ast.AnnAssign, ast.AugAssign)  # what `Imports` reads for module aliases
_DISPATCHED = frozenset(PREDICT_METHODS)  # found among the file's classes by name (calls._plain_class_method)


@dataclass(eq=False, repr=False)
class _Statement:
    node: ast.stmt
    shared_at_start: bool      # it is the first statement (where a docstring is shared)
    names: Names | None        # None: shared by every part (imports, the docstring)
    imports: list[ast.AST]     # the import statements in it, in source order
    nodes: list[ast.AST]       # all of its nodes, for the questions about the whole module


class _ModuleFacts:
    """For each question about the whole module an analysis asked (`questions.ModuleQuestion`),
    the facts of the statements that have one (not the question's neutral fact), kept from one
    text to the next: after an edit only the new statements are asked, so a keystroke does not
    go over every statement of the file for each question."""

    def __init__(self) -> None:
        self._kept: dict[ModuleQuestion, tuple[object, dict[int, object]]] = {}  # (imports used, id → fact)

    def update(self, gone: list[_Statement], added: list[_Statement], doc: Document, imports) -> None:
        """The statements `gone` since the last text and those `added` (a keystroke: one each)."""
        for question, (used, facts) in list(self._kept.items()):
            if question.uses_imports and used is not imports:
                if used != imports:
                    del self._kept[question]  # asked again of every statement, when asked
                    continue
                self._kept[question] = (imports, facts)  # (compared by identity next time)
            for s in gone:
                facts.pop(id(s.node), None)
            for s in added:
                if (fact := question.of_nodes(s.nodes, doc.imports)) != question.neutral:
                    facts[id(s.node)] = fact

    def of(self, question: ModuleQuestion, doc: Document, *, statements: list[_Statement], imports) -> list:
        if question not in self._kept:
            facts = {id(s.node): fact for s in statements
                     if (fact := question.of_nodes(s.nodes, doc.imports)) != question.neutral}
            self._kept[question] = (imports if question.uses_imports else None, facts)
        return list(self._kept[question][1].values())


class PartCache:
    """One document's parts and their findings, from one analysis to the next (not thread-safe:
    one document is analysed by one thread at a time)."""

    def __init__(self) -> None:
        self._statements: dict[int, _Statement] = {}   # by id of the statement (kept alive in it)
        self._facts = _ModuleFacts()
        self._context: tuple | None = None  # the last analysis's (see `findings`)
        self._imports: tuple | None = None  # (the nodes they were made from, Imports, fingerprint)
        self._parts: dict[tuple[int, ...], _Part] = {}
        self._partition: tuple = ([], None, {})  # the last names, their components, each statement's
        self._answers: dict = {}  # the last text's answers to the questions its parts asked (`Document.ask`)
        self._keys: list[tuple[int, ...]] = []  # the last text's parts' keys, in the order of its groups
        self._groups: list[list[int]] | None = None
        self._shared_at: tuple | None = None
        self._shared_texts: tuple | None = None  # (the shared statements, their texts)
        self._all_recorded = False  # every part of the last text has its values (`record`)
        self._ready = False  # the last analysis finished: what it kept can be built on
        self.analysed = self.reused = 0                 # parts, for benchmarks and tests

    def findings(self, doc: Document, break_rules, conventions) -> list[Diagnostic]:
        ready, self._ready = self._ready, False  # (an analysis that raises leaves nothing to build on)
        body = doc.tree.body
        statements, fresh = self._statements_of(doc, body)
        known = {id(s.node): s for s in statements}
        gone = [self._statements[key] for key in self._statements.keys() - known.keys()]  # (in C)
        added = [known[key] for key in known.keys() - self._statements.keys()]
        imports = self._imports_of(doc, statements, (gone, added) if ready else None)
        shared = [s.node for s in statements if s.names is None]
        # The shared statements (imports) as written, not where: a line added above an import moves
        # it without changing what any part imports. A part with a finding on one of their lines
        # depends on where they are too (`_Part.shared_at`).
        context = (self._texts_of(doc, shared), imports, conventions, id(break_rules))
        same_context = context == self._context
        if same_context:
            context = self._context  # the same object: each part's check compares it by identity
        self._context = context
        shared_at = tuple((stmt.lineno, stmt.end_lineno) for stmt in shared)
        self._facts.update(gone, added, doc, imports)
        # (Not a closure over `doc`: a document holding a function that holds it is a reference
        # cycle, left to the garbage collector with the statements it keeps, one per keystroke.)
        doc.statement_facts = functools.partial(self._facts.of, statements=statements, imports=imports)
        groups, group_of = self._components([s.names for s in statements])
        recorder = record.active()
        changed = self._changed_answers(doc)
        # The last text's parts hold, without a check each, when nothing they all depend on changed
        # and the partition is the same: only the groups of the new statements are looked at.
        holding = ready and same_context and not changed and shared_at == self._shared_at \
            and groups is self._groups and (recorder is None or self._all_recorded)
        touched = {group_of[index] for index in fresh if index in group_of} if holding else None
        kept: dict[tuple[int, ...], _Part] = {}
        keys: list[tuple[int, ...]] = []
        analysed = 0
        for number, group in enumerate(groups):
            if touched is not None and number not in touched:
                key = self._keys[number]
                part = self._parts[key]
            else:
                nodes = list(map(body.__getitem__, group))
                key = tuple(map(id, nodes))
                part = self._parts.get(key)
                if part is None or not self._still_valid(part, context, shared_at, recorder is not None, changed):
                    part = self._analyse(doc, shared, nodes, context, break_rules, conventions, recorder)
                    part.shared_at = shared_at if _on_lines(part.diagnostics, shared) else None
                    analysed += 1
            kept[key] = part
            keys.append(key)
        self.analysed += analysed
        self.reused += len(groups) - analysed
        self._parts, self._keys, self._groups, self._shared_at = kept, keys, groups, shared_at
        self._all_recorded = recorder is not None or (self._all_recorded and not analysed)
        self._answers = doc.asked  # every question a kept part asked, answered for this text
        self._statements = known
        if recorder is not None:
            recorder.defer(doc, lambda parts=list(kept.values()): (
                Analysis.merged(doc, [p.analysis for p in parts]),
                {node: value for p in parts for node, value in p.values.items()}))
        self._ready = True
        return deduplicated([d for part in kept.values() for d in part.diagnostics])

    def _statements_of(self, doc: Document, body: list[ast.stmt]) -> tuple[list["_Statement"], list[int]]:
        """The top-level statements' facts, and the indexes of those not kept from the last text (a
        statement the edit did not touch is the same node, found by its id)."""
        old = self._statements.get
        statements, fresh = [], []
        for index, stmt in enumerate(body):
            known = old(id(stmt))
            if known is None or known.node is not stmt or known.shared_at_start != (index == 0):
                known = self._statement(stmt, index, doc)
                fresh.append(index)
            statements.append(known)
        return statements, fresh

    def _texts_of(self, doc: Document, shared: list[ast.stmt]) -> tuple[str, ...]:
        """The shared statements' texts: the last text's while they are the same nodes (a node the
        incremental parser kept stands on lines that did not change)."""
        nodes = tuple(shared)
        if self._shared_texts is None or self._shared_texts[0] != nodes:  # (nodes compare by identity)
            self._shared_texts = (nodes, tuple(doc.text(stmt) for stmt in shared))
        return self._shared_texts[1]

    def _imports_of(self, doc: Document, statements: list[_Statement], replaced: tuple | None) -> tuple:
        """Give `doc` its imports, and return their fingerprint: made from what its import statements
        say and its top-level assignments (module aliases, `tfd = tfp.distributions`), so kept while
        the imports say the same and the assignments are the same nodes (a keystroke inside a
        function changes neither, even in a function that imports: `Imports` keeps no node).
        `replaced`: the statements gone and those added since the last text (None: not known); when none
        assigns at the top level and their imports say the same, the imports are the last text's."""
        if self._imports is not None and replaced is not None and _same_imports(*replaced):
            doc.use_imports(self._imports[1])
            return self._imports[2]
        nodes = [node for s in statements for node in s.imports]
        key = (tuple(map(_import_says, nodes)),
               tuple(s.node for s in statements if isinstance(s.node, _ALIASING)))  # (these by identity)
        if self._imports is not None and self._imports[0] == key:
            doc.use_imports(self._imports[1])
        else:
            doc.use_import_nodes(nodes)
            fingerprint = _fingerprint(vars(doc.imports))
            if self._imports is not None and fingerprint == self._imports[2]:
                fingerprint = self._imports[2]  # the same object: compared by identity from now on
            self._imports = (key, doc.imports, fingerprint)
        return self._imports[2]

    @staticmethod
    def _statement(stmt: ast.stmt, index: int, doc: Document) -> "_Statement":
        nodes = walk(stmt)  # once: for its imports, its names and the questions about the module
        imports = sorted((n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))),
                         key=lambda n: (n.lineno, n.col_offset))
        names = None
        if not is_shared(stmt, index):
            names = names_of(stmt, statement_text(stmt, doc.lines), COLLECTION_ADDERS, nodes)
        return _Statement(stmt, index == 0, names, imports, nodes)

    def _components(self, names: list[Names | None]) -> tuple[list[list[int]], dict[int, int]]:
        """`components(names)` (or one empty group), with each statement's group: reused when no
        statement's names changed (a keystroke inside a function changes its text, seldom what it
        binds and reads)."""
        old, groups, group_of = self._partition
        if old != names or groups is None:  # (in C: each pair by identity first, as a keystroke leaves nearly all)
            groups = components(names, _DISPATCHED) or [[]]
            group_of = {index: number for number, group in enumerate(groups) for index in group}
        self._partition = (names, groups, group_of)
        return groups, group_of

    def _changed_answers(self, doc: Document) -> set:
        """The questions about the whole module whose answer for this text differs from the last
        text's. Each kept part asked only questions of the last text (kept then, it had their
        answers; analysed then, it asked them), so it holds while none of its questions is here:
        the questions are answered once per text, not compared part by part (194 parts, 4 questions
        on 5,000 lines)."""
        return {key for key, answer in self._answers.items() if doc.ask(key[0], *key[1]) != answer}

    @staticmethod
    def _still_valid(part: _Part, context: tuple, shared_at: tuple, recording: bool, changed: set) -> bool:
        if part.context != context or (recording and part.analysis is None):
            return False
        if part.shared_at is not None and part.shared_at != shared_at:
            return False
        return not changed or changed.isdisjoint(part.asked)

    @staticmethod
    def _analyse(doc: Document, shared: list[ast.stmt], statements: list[ast.stmt], context: tuple,
                 break_rules, conventions, recorder) -> _Part:
        body = sorted([*shared, *statements], key=lambda s: (s.lineno, s.col_offset))
        part = Document.part(doc, body)
        if recorder is None:
            found = diagnostics_for(analyze_document(part, break_rules, conventions=conventions))
            return _Part(tuple(statements), context, part.asked, found)
        with record.recording() as own:
            found = diagnostics_for(analyze_document(part, break_rules, conventions=conventions))
        own.analysis.doc = None  # the module's document of this text, kept by nobody once merged
        return _Part(tuple(statements), context, part.asked, found, own.analysis, own.values)


def _on_lines(diagnostics: list[Diagnostic], statements: list[ast.stmt]) -> bool:
    """Some span of the findings (their own, a note's, a fix's) is on a line of `statements`."""
    lines = {line for stmt in statements for line in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)}
    spans = (span for d in diagnostics
             for span in (d.span, *(r.span for r in d.related), *(e.span for f in d.fixes for e in f.edits)))
    return any(line in lines for span in spans for line in range(span.line, span.end_line + 1))


def _same_imports(gone: list[_Statement], added: list[_Statement]) -> bool:
    """The module's imports are what they were after the statements `gone` were replaced by those
    `added`: none of them assigns at the top level (a module alias), and none imports, or one
    statement was replaced by one whose imports say the same (a keystroke in a function that
    imports; the statement in the same place, so the imports in the same order)."""
    if any(isinstance(s.node, _ALIASING) for s in (*gone, *added)):
        return False
    if not any(s.imports for s in (*gone, *added)):
        return True
    return len(gone) == len(added) == 1 and list(map(_import_says, gone[0].imports)) \
        == list(map(_import_says, added[0].imports))


def _import_says(node: ast.Import | ast.ImportFrom) -> tuple:
    """What an import statement binds, all `Imports` reads of it."""
    names = tuple((alias.name, alias.asname) for alias in node.names)
    return (names,) if isinstance(node, ast.Import) else (names, node.module, node.level)


def _fingerprint(value) -> object:
    """A hashable, comparable copy of plain data (the imports' dicts, sets and flags)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _fingerprint(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(map(_fingerprint, value), key=repr))
    if isinstance(value, (list, tuple)):
        return tuple(map(_fingerprint, value))
    return value
