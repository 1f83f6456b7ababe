"""What a front end reports for one Python text under a configuration: the CLI and the server.

`lint` is strict: a text that does not parse yields one E999 diagnostic, as a linter should.
`lint_tolerant` is for an editor, where the text is half-typed most of the time: the lines that
break the parse are blanked out (the rest keeps its positions) and the remainder is analysed, so
a typo in one function does not hide the breaks found in all the others.
"""
from __future__ import annotations

import ast
import dataclasses
import logging
import os
import re

from . import api
from .config import Config
from .diagnostics import Diagnostic, Severity, Span
from .document import PARSE_FAILURES, compile_only, parse
from .suppression import suppressed

log = logging.getLogger("gradguard.analysis")

# Blanking more lines than this rarely recovers anything worth showing, and each try is a parse.
MAX_RECOVERY_ATTEMPTS = 8


def lint(source: str, path: str | os.PathLike, config: Config = Config(), config_path=None, *,
         resolver=None, budget=None) -> list[Diagnostic]:
    """Enabled, unsuppressed diagnostics with configured severities; E999 if `source` does not parse.

    `config_path` is the path that per-file ignores match (defaults to `path`). `resolver` and
    `budget` (see inference.py) let the analysis follow calls into other modules.
    """
    try:
        return _analyze(source, str(path), config, config_path or path, resolver, budget)
    except PARSE_FAILURES as failure:  # parse first, ask why only when it fails: one parse, not two
        error = syntax_error(source, str(path))
        if error is not None:
            return [error]
        if isinstance(failure, RecursionError):
            return _too_deep(path)
        raise


def lint_tolerant(source: str, path: str | os.PathLike, config: Config = Config(), config_path=None, *,
                  resolver=None, budget=None, parser=None) -> list[Diagnostic]:
    """Like `lint`, but analyse what parses instead of reporting a syntax error.

    A blanked line can change what the rest of its scope means (the assignment being typed is
    missing), so findings in the top-level function or class around a blanked line are dropped,
    or in the module-level code when the blanked line is there. Fixes that touch a blanked line
    are dropped too. When nothing can be recovered the result is empty.
    """
    try:
        return _analyze(source, str(path), config, config_path or path, resolver, budget, parser)
    except PARSE_FAILURES as failure:
        if _parse_error(source) is None:
            if isinstance(failure, RecursionError):
                return _too_deep(path)
            raise  # not a syntax problem: an analyzer bug the caller must see
    recovered = recover(source)
    if recovered is None:
        return []
    parsable, blanked = recovered
    try:
        found = _analyze(parsable, str(path), config, config_path or path, resolver, budget)
    except RecursionError:
        return _too_deep(path)
    unreliable = _unreliable_lines(parse(parsable), blanked)
    return [_without_fixes_touching(d, blanked) for d in found if not _touches(d, unreliable)]


def _analyze(source: str, display: str, config: Config, config_path, resolver=None, budget=None,
             parser=None) -> list[Diagnostic]:
    extra = {"resolver": resolver, "budget": budget} if resolver is not None else {}
    if parser is not None:
        extra["parser"] = parser
    found = api.analyze(source, display, enabled=lambda code: config.enabled(code, config_path), **extra)
    lines = split_source_lines(source)
    kept = [
        dataclasses.replace(d, severity=config.severity_for(d.code, d.severity))
        for d in found
        if config.enabled(d.code, config_path) and not suppressed(d, lines)
    ]
    return sorted(kept, key=lambda d: (d.span, d.code))


def _too_deep(path) -> list[Diagnostic]:
    """An expression nested beyond the analyzer's recursion limit: nothing is reported for the file."""
    log.warning("%s: expressions nested too deeply to analyse; no findings for this file", path)
    return []


def split_source_lines(source: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", source)  # the lines `ast` numbers (not str.splitlines)


def syntax_error(source: str, display: str = "<unknown>") -> Diagnostic | None:
    error = _parse_error(source, display)
    if error is None:
        return None
    line, col, message = error
    return Diagnostic("E999", Severity.ERROR, message, Span(line, col, line, col))


def _parse_error(source: str, display: str = "<unknown>") -> tuple[int, int, str] | None:
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

    A blanked line keeps its indentation and becomes `pass`, so a block whose only statement was
    being typed stays a block; every other line keeps its text and position. None when a few
    attempts do not give a parsable text.
    """
    if "\x00" in source:
        return None
    lines = re.split(r"(\r\n|\r|\n)", source)  # texts at even indexes, their newlines at odd ones
    blanked: set[int] = set()
    for _ in range(MAX_RECOVERY_ATTEMPTS + 1):
        text = "".join(lines)
        error = _parse_error(text)
        if error is None:
            return text, frozenset(blanked)
        line = _line_to_blank(error[0], lines, blanked)
        if line is None:
            return None
        index = 2 * (line - 1)
        indent = re.match(r"[ \t]*", lines[index]).group()
        lines[index] = f"{indent}pass" if lines[index].strip() else lines[index]
        blanked.add(line)
    return None


def _line_to_blank(line: int, lines: list[str], blanked: set[int]) -> int | None:
    """The reported line, or when it is already blank(ed), the nearest non-blank line above it."""
    count = (len(lines) + 1) // 2
    line = min(max(line, 1), count)
    while line >= 1 and (line in blanked or not lines[2 * (line - 1)].strip()):
        line -= 1
    return line if line >= 1 else None


def _unreliable_lines(tree: ast.Module, blanked: frozenset[int]) -> frozenset[int]:
    """The lines of every scope that holds a blanked line (module-level code is one scope)."""
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


def _touches(diagnostic: Diagnostic, lines: frozenset[int]) -> bool:
    return _any_on(lines, [diagnostic.span, *(r.span for r in diagnostic.related)])


def _without_fixes_touching(diagnostic: Diagnostic, lines: frozenset[int]) -> Diagnostic:
    fixes = tuple(fix for fix in diagnostic.fixes if not _any_on(lines, [e.span for e in fix.edits]))
    return dataclasses.replace(diagnostic, fixes=fixes)


def _any_on(lines: frozenset[int], spans: list[Span]) -> bool:
    return any(span.line <= line <= span.end_line for span in spans for line in lines)
