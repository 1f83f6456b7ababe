"""The properties every fuzz input must satisfy: never crash, never lose a line, stay in bounds.

`Checker.check(sample)` runs one input through every entry point and returns the `Failure`s:

* no exception escapes `lint`, `lint_tolerant`, the server's `analysis.analyze` / `fixed_texts`,
  or `api.analyze` / `api.fix_source` on a text Python parses (on a text it does not parse, only
  `SyntaxError` / `ValueError` may come out of `analyze` and `fix_source`, which is built on it);
* every diagnostic, related and edit span lies inside the document (lines 1..n, columns within
  their line, start <= end), and so does every LSP range the server would send;
* every single fix of every diagnostic, applied alone, gives a text that parses when the input
  parsed, and changes nothing before its first edit or after its last one; the edits of one fix
  do not overlap;
* `fix_source` (safe, and with unsafe fixes) gives parsable code and is idempotent: a second run
  changes nothing;
* `gradguard check` and `gradguard check --fix` on a temporary file never exit 2 (internal error),
  never leave a file that fails to parse when it parsed before, never touch a file that did not
  parse or could not be decoded, keep a BOM and CRLF endings, and a second `--fix` changes nothing;
* no input takes longer than the checker's time limit (a hang is a failure, not a stuck run).

Nothing here runs the analysed code: texts are only parsed (`compile(..., PyCF_ONLY_AST)`).
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import random
import re
import signal
import tempfile
import threading
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from gradguard.rules import api
from gradguard.rules.app import cli
from gradguard.rules.project.config import Config
from gradguard.rules.diagnostics import Diagnostic, Span
from gradguard.rules.api import lint, lint_tolerant
from gradguard.rules.source.document import PARSE_FAILURES
from gradguard.rules.source.notebook import Notebook, NotebookError

from mutations import HEAVY_KINDS, Sample

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
PARSE_ERRORS = (SyntaxError, ValueError)  # ValueError: NUL bytes, lone surrogates
# analyze's "does not parse" (PARSE_FAILURES) also counts CPython's parser giving up on deep nesting


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class Failure:
    prop: str        # the property that failed
    signature: str   # stable across inputs failing the same way (for deduplication)
    detail: str      # what happened, with the traceback for an exception

    def __str__(self) -> str:
        return f"{self.signature}\n{self.detail}"


@dataclass
class Figures:
    """What was checked: the numbers docs/reliability.md reports."""

    inputs: Counter = field(default_factory=Counter)          # per mutation kind
    parsable: Counter = field(default_factory=Counter)        # per kind: inputs Python parses
    diagnostics: int = 0      # diagnostics whose spans were checked (all entry points)
    fixes: int = 0            # single fixes applied and checked
    edits: int = 0            # edits of those fixes
    fix_runs: int = 0         # fix_source / fixed_texts runs checked for parse and idempotence
    cli_runs: int = 0         # `gradguard check` invocations
    server_runs: int = 0      # server snapshots analysed (documents and notebooks)
    long_fix_chains: int = 0  # fix-alls that needed more than MAX_FIX_ROUNDS rounds but ended
    failures: Counter = field(default_factory=Counter)        # per signature

    def merge(self, other: "Figures") -> None:
        self.inputs.update(other.inputs)
        self.parsable.update(other.parsable)
        self.failures.update(other.failures)
        for name in ("diagnostics", "fixes", "edits", "fix_runs", "cli_runs", "server_runs", "long_fix_chains"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


# ---------------------------------------------------------------------------------------------
# Helpers


def parses(text: str) -> bool:
    """Python accepts `text` (parsing only; nothing is executed)."""
    try:
        compile(text, "<fuzz>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except PARSE_ERRORS:
        return False
    except (RecursionError, MemoryError):
        return False  # CPython's own parser gives up: not a program anybody can run
    return True


def doc_lines(text: str) -> list[str]:
    """The document's lines without their endings, numbered like `ast` and LSP number them."""
    return _LINE_BREAK.split(text)


def span_problem(span: Span, lines: list[str]) -> str | None:
    count = len(lines)
    for line, col, end in ((span.line, span.col, "start"), (span.end_line, span.end_col, "end")):
        if not 1 <= line <= count:
            return f"{end} line {line} outside 1..{count}"
        if not 0 <= col <= len(lines[line - 1]):
            return f"{end} column {col} outside 0..{len(lines[line - 1])} on line {line}"
    if (span.line, span.col) > (span.end_line, span.end_col):
        return "start after end"
    return None


def _where(error: BaseException) -> str:
    """The innermost gradguard frame of a traceback: file:function (stable across inputs)."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/rules/" in f.filename or "/server/" in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "?"
    return f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.name}"


def exception_failure(prop: str, error: BaseException) -> Failure:
    """A crash; its signature names the exception and where in gradguard it came from, not the
    entry point, so one bug reached through lint, the server and the CLI counts once."""
    text = f"via {prop}\n" + "".join(traceback.format_exception(type(error), error, error.__traceback__))
    lines = text.splitlines()
    if len(lines) > 60:  # a RecursionError traceback repeats one frame a thousand times
        text = "\n".join(lines[:30] + ["    ..."] + lines[-25:])
    where = _where(error)
    last = traceback.extract_tb(error.__traceback__)[-1:]
    if isinstance(error, MemoryError) and last and last[0].filename.endswith("ast.py"):
        where = "Python's parser"  # CPython's parser gives up (`{` x 200 `h` `}` x 200 ` = 1`)
    elif isinstance(error, RecursionError):
        if "during ast construction" in str(error) or "during compilation" in str(error):
            where = "Python's parser"  # CPython itself gives up on the text
        else:  # the innermost frame varies with the expression's shape: name the recursing file
            files = [f"{Path(f.filename).parent.name}/{Path(f.filename).name}"
                     for f in traceback.extract_tb(error.__traceback__)
                     if "/rules/" in f.filename or "/server/" in f.filename]
            where = max(set(files), key=files.count) if files else where.split(":")[0]
    return Failure(prop, f"crash: {type(error).__name__} in {where}", text)


class InputTimeout(BaseException):
    """One input took longer than its time limit (a BaseException: no property may swallow it)."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    """Raise InputTimeout in the main thread after `seconds` (no limit elsewhere, or for None)."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise InputTimeout(f"more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def timeout_failure(timeout: InputTimeout, limit: float | None) -> Failure:
    """A hang, named after where it was: nested loops re-run by the engine are a known one."""
    frames = traceback.extract_tb(timeout.__traceback__)
    loops = sum(f.name in ("exec_For", "exec_While") for f in frames)
    where = _where(timeout).split(":")[0]
    detail = "".join(traceback.format_list(frames[-15:]))
    return Failure("timeout", f"timeout in {where}{' (nested loops)' if loops >= 8 else ''}",
                   f"{timeout}\n{detail}")


def _offset(lines_with_ends: list[str], line: int, col: int, total: int) -> int:
    if line - 1 >= len(lines_with_ends):
        return total
    return sum(len(x) for x in lines_with_ends[:line - 1]) + col


# ---------------------------------------------------------------------------------------------
# The checker


class Checker:
    """Runs the properties on samples, counting what it checked in `figures`."""

    def __init__(self, *, cli: bool = True, server: bool = True, max_fixes: int | None = None,
                 heavy_max_fixes: int = 3, tmp: Path | None = None, cli_jedi_fraction: float = 0.1,
                 time_limit: float | None = 30.0, heavy_time_limit: float | None = 150.0):
        self.use_cli = cli
        self.use_server = server
        self.max_fixes = max_fixes
        self.heavy_max_fixes = heavy_max_fixes
        self.tmp = tmp
        self.cli_jedi_fraction = cli_jedi_fraction
        self.time_limit = time_limit
        self.heavy_time_limit = heavy_time_limit
        self.figures = Figures()

    # -- entry -----------------------------------------------------------------------------------

    def check(self, sample: Sample) -> list[Failure]:
        """Every property on one sample; a sample slower than `time_limit` is a failure too."""
        self.figures.inputs[sample.kind] += 1
        heavy = sample.kind in HEAVY_KINDS
        limit = self.heavy_time_limit if heavy else self.time_limit
        rng = random.Random(sample.label)
        failures: list[Failure] = []
        try:
            with time_limit(limit):
                failures += self._check_text_and_server(sample, heavy, rng)
            if self.use_cli and sample.data is not None and not heavy:
                # Following imports with jedi costs about a second per run: only some runs do it,
                # and they get more time (five CLI runs per sample).
                jedi = rng.random() < self.cli_jedi_fraction
                with time_limit(limit and limit * (6 if jedi else 1)):
                    failures += self.check_cli(sample.data, sample.suffix, jedi=jedi)
        except InputTimeout as timeout:
            failures.append(timeout_failure(timeout, limit))
        for failure in failures:
            self.figures.failures[failure.signature] += 1
        return failures

    def _check_text_and_server(self, sample: Sample, heavy: bool, rng: random.Random) -> list[Failure]:
        failures: list[Failure] = []
        if sample.text is not None:
            text = sample.text
            ok = parses(text)
            self.figures.parsable[sample.kind] += ok
            failures += self.check_text(text, ok, rng, max_fixes=self.heavy_max_fixes if heavy else self.max_fixes,
                                        full=not heavy)
            if self.use_server:
                failures += self.check_server(text, ok, rng, full=not heavy)
        return failures

    # -- the analyzer's API -------------------------------------------------------------------

    def check_text(self, text: str, ok: bool, rng: random.Random, *, max_fixes: int | None = None,
                   full: bool = True) -> list[Failure]:
        failures: list[Failure] = []
        lines = doc_lines(text)

        for name, front in (("lint", lint), ("lint_tolerant", lint_tolerant)):
            try:
                found = front(text, "fuzz.py")
            except Exception as error:  # noqa: BLE001 - the property is "nothing escapes"
                failures.append(exception_failure(name, error))
                continue
            failures += self.check_diagnostics(name, found, lines)
            if name == "lint" and ok and any(d.code == "E999" for d in found):
                failures.append(Failure(name, f"{name}: E999 on a parsable text", "lint reported E999"))
            if name == "lint" and not ok and not any(d.code == "E999" for d in found):
                failures.append(Failure(name, f"{name}: no E999 on an unparsable text", repr(found[:3])))

        try:
            found = api.analyze(text, "fuzz.py")
        except Exception as error:  # noqa: BLE001
            # analyze's contract: SyntaxError for what does not parse, RecursionError for what nests
            # deeper than the engine follows (lint, checked above, turns both into a report)
            if not (isinstance(error, PARSE_FAILURES) and not ok or isinstance(error, RecursionError)):
                failures.append(exception_failure("analyze", error))
            found = None
        if found is not None:
            failures += self.check_diagnostics("analyze", found, lines)
            failures += self.check_single_fixes(text, ok, found, rng, max_fixes)

        for unsafe in (False, True) if full else (True,):
            failures += self.check_fix_source(text, ok, unsafe, second_run=full)
        if full:
            failures += self.check_fix_source(text, ok, True, tolerant=True)
        return failures

    def check_diagnostics(self, where: str, found: list[Diagnostic], lines: list[str]) -> list[Failure]:
        failures = []
        for diagnostic in found:
            self.figures.diagnostics += 1
            spans = [("span", diagnostic.span), *(("related", r.span) for r in diagnostic.related),
                     *(("edit", e.span) for f in diagnostic.fixes for e in f.edits)]
            for what, span in spans:
                problem = span_problem(span, lines)
                if problem:
                    failures.append(Failure(
                        f"{where}-spans", f"{where}-spans: {diagnostic.code} {what} out of the document",
                        f"{diagnostic.code} {what} {span}: {problem}"))
        return failures

    def check_single_fixes(self, text: str, ok: bool, found: list[Diagnostic], rng: random.Random,
                           max_fixes: int | None) -> list[Failure]:
        failures = []
        newline = api.newline_of(text)
        lines = doc_lines(text)
        fixes = [(d, fix) for d in found for fix in d.fixes]
        if max_fixes is not None and len(fixes) > max_fixes:
            fixes = rng.sample(fixes, max_fixes)
        for diagnostic, fix in fixes:
            fix = api.with_newline(fix, newline)
            if any(span_problem(e.span, lines) for e in fix.edits):
                continue  # reported by check_diagnostics; applying it would only add noise
            self.figures.fixes += 1
            self.figures.edits += len(fix.edits)
            label = f"{diagnostic.code} fix {fix.title!r}"
            edits = sorted(fix.edits, key=lambda e: (e.span.line, e.span.col, e.span.end_line, e.span.end_col))
            if any(a != b and a.span.overlaps(b.span) for a, b in zip(edits, edits[1:])):
                failures.append(Failure("fix-edits", f"fix-edits: {diagnostic.code} overlapping edits", label))
                continue
            try:
                new = api.apply_fixes(text, [fix])
            except Exception as error:  # noqa: BLE001
                failures.append(exception_failure("apply_fixes", error))
                continue
            failures += _outside_edits(text, new, fix, label, diagnostic.code)
            if ok and not parses(new):
                failures.append(Failure("fix-parses", f"fix-parses: {diagnostic.code} fix gives unparsable code",
                                        f"{label}\n{_fix_repr(fix)}\n--- result around the edit ---\n"
                                        f"{_excerpt(new, edits[0].span.line)}"))
        return failures

    def check_fix_source(self, text: str, ok: bool, unsafe: bool, tolerant: bool = False,
                         second_run: bool = True) -> list[Failure]:
        name = f"fix_source(unsafe={unsafe}{', tolerant' if tolerant else ''})"
        diagnose = (lambda source: lint_tolerant(source, "fuzz.py")) if tolerant else None
        self.figures.fix_runs += 1
        try:
            once = api.fix_source(text, "fuzz.py", unsafe=unsafe, diagnose=diagnose)
        except Exception as error:  # noqa: BLE001
            if not tolerant and isinstance(error, RecursionError):
                return []  # fix_source diagnoses with analyze by default: its contract, as above
            if tolerant or ok or not isinstance(error, PARSE_FAILURES):
                return [exception_failure(name, error)]
            return []
        failures = []
        if ok and not parses(once):
            failures.append(Failure(name, f"{name}: result does not parse", _excerpt_diff(text, once)))
            return failures
        if once == text or not ok or not second_run:
            return failures
        try:
            twice = api.fix_source(once, "fuzz.py", unsafe=unsafe, diagnose=diagnose)
        except Exception as error:  # noqa: BLE001
            return [exception_failure(name + " second run", error)]
        if twice != once:
            if _converges(once, unsafe, diagnose):
                self.figures.long_fix_chains += 1  # more than MAX_FIX_ROUNDS rounds, but it ends
                return failures
            codes = _fixable_codes(once, unsafe)
            failures.append(Failure(name, f"fix-all not idempotent: {codes} fixed again",
                                    f"via {name}\n{_excerpt_diff(once, twice)}"))
        return failures

    # -- the server's pure functions ------------------------------------------------------------

    def check_server(self, text: str, ok: bool, rng: random.Random, full: bool = True) -> list[Failure]:
        from gradguard.server import analysis
        from gradguard.server.documents import Encoding, TextDocument

        failures = []
        units = [(False, [text])]
        if full:
            units.append((True, _cells(rng, text)))
        for notebook, texts in units:
            name = "server-notebook" if notebook else "server"
            encoding = Encoding(rng.choice(("utf-16", "utf-8", "utf-32")))
            documents = [TextDocument(f"file:///fuzz/cell{i}.py", t, 1) for i, t in enumerate(texts)]
            self.figures.server_runs += 1
            try:
                snap = analysis.snapshot("file:///fuzz/nb.ipynb" if notebook else documents[0].uri, "fuzz.py",
                                         documents, notebook, Config(), encoding)
                result = analysis.analyze(snap)
            except Exception as error:  # noqa: BLE001
                failures.append(exception_failure(name, error))
                continue
            failures += _lsp_ranges(name, result, documents, encoding)
            self.figures.diagnostics += len(result.diagnostics)
            source_ok = parses(snap.source)
            for unsafe in (False, True) if full else ():  # a huge input: diagnostics only
                self.figures.fix_runs += 1
                try:
                    fixed = analysis.fixed_texts(snap, unsafe)
                except Exception as error:  # noqa: BLE001
                    failures.append(exception_failure(f"{name} fixed_texts", error))
                    continue
                joined = analysis.join_texts(fixed, notebook)[0]
                if source_ok and not parses(joined):
                    failures.append(Failure(f"{name} fixed_texts", f"{name} fixed_texts: result does not parse",
                                            _excerpt_diff(snap.source, joined)))
        return failures

    # -- the command line -------------------------------------------------------------------------

    def check_cli(self, data: bytes, suffix: str, jedi: bool = False) -> list[Failure]:
        failures = []
        self._options = [] if jedi or not _has_option("--no-jedi") else ["--no-jedi"]
        with tempfile.TemporaryDirectory(dir=self.tmp) as folder:
            path = Path(folder, "fuzz" + suffix)
            path.write_bytes(data)
            before = _python_of(data, suffix)
            code, _, err = self.run_cli("check", str(path))
            failures += _cli_exit("cli check", code, err, before)
            for options in (["--fix"], ["--fix", "--unsafe-fixes"]):
                path.write_bytes(data)
                name = "cli " + " ".join(options)
                code, _, err = self.run_cli("check", *options, str(path))
                after = path.read_bytes()
                failures += _cli_exit(name, code, err, before)
                failures += _cli_file(name, data, after, before, suffix)
                if after != data and not failures:
                    code, _, err = self.run_cli("check", *options, str(path))
                    failures += _cli_exit(name + " (second run)", code, err, _python_of(after, suffix))
                    unsafe = "--unsafe-fixes" in options
                    if path.read_bytes() != after and _converges(_python_of(after, suffix) or "", unsafe):
                        self.figures.long_fix_chains += 1  # more than MAX_FIX_ROUNDS rounds, but it ends
                    elif path.read_bytes() != after:
                        codes = _fixable_codes(_python_of(after, suffix) or "", unsafe)
                        failures.append(Failure(name, f"cli --fix not idempotent: {codes} fixed again",
                                                _excerpt_diff(after.decode("utf-8", "replace"),
                                                              path.read_bytes().decode("utf-8", "replace"))))
            leftovers = sorted(set(os.listdir(folder)) - {path.name})
            if leftovers:
                failures.append(Failure("cli --fix", "cli --fix: files left behind", repr(leftovers)))
        return failures

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        self.figures.cli_runs += 1
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            options = ["--no-cache", "--quiet", *getattr(self, "_options", [])]
            code = cli.main(["check", *options, *argv[1:]] if argv[0] == "check" else list(argv))
        return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------------------------
# Property helpers


def _outside_edits(text: str, new: str, fix, label: str, code: str) -> list[Failure]:
    """Nothing before the first edit or after the last one changed (checked per character)."""
    with_ends = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    starts = [_offset(with_ends, e.span.line, e.span.col, len(text)) for e in fix.edits]
    ends = [_offset(with_ends, e.span.end_line, e.span.end_col, len(text)) for e in fix.edits]
    first, last = min(starts), max(ends)
    tail = len(text) - last
    if new[:first] != text[:first] or new[len(new) - tail:] != text[last:] or len(new) < first + tail:
        return [Failure("fix-locality", f"fix-locality: {code} fix changes text outside its edits",
                        f"{label}\n{_fix_repr(fix)}")]
    # Line-wise as well: every line before the first edited line and after the last one is kept.
    old_lines, new_lines = doc_lines(text), doc_lines(new)
    top = min(e.span.line for e in fix.edits) - 1
    bottom = len(old_lines) - max(e.span.end_line for e in fix.edits)
    if new_lines[:top] != old_lines[:top] or (bottom and new_lines[-bottom:] != old_lines[-bottom:]):
        return [Failure("fix-locality", f"fix-locality: {code} fix changes lines outside its edits",
                        f"{label}\n{_fix_repr(fix)}")]
    return []


def _lsp_ranges(name: str, result, documents, encoding) -> list[Failure]:
    by_uri = {d.uri: d for d in documents}
    failures = []

    def check(uri: str, range_: dict, what: str, code: str) -> None:
        document = by_uri.get(uri)
        if document is None:
            failures.append(Failure(name, f"{name}: {what} in an unknown document", f"{code} {uri}"))
            return
        points = [(range_["start"]["line"], range_["start"]["character"]),
                  (range_["end"]["line"], range_["end"]["character"])]
        for line, character in points:
            if not 0 <= line < document.line_count or not 0 <= character <= encoding.units(document.line(line)):
                failures.append(Failure(name, f"{name}: {code} {what} range out of the document",
                                        f"{range_} in a document of {document.line_count} lines"))
                return
        if points[0] > points[1]:
            failures.append(Failure(name, f"{name}: {code} {what} range start after end", repr(range_)))

    for uri, diagnostics in result.by_uri.items():
        for diagnostic in diagnostics:
            code = str(diagnostic.code)
            check(uri, _range_dict(diagnostic.range), "diagnostic", code)
            for related in diagnostic.related_information or []:
                check(related.location.uri, _range_dict(related.location.range), "related", code)
            for fix in (diagnostic.data or {}).get("fixes", []):
                for edit in fix["edits"]:
                    check(edit["uri"], edit["range"], "edit", code)
    return failures


def _range_dict(range_) -> dict:
    return {"start": {"line": range_.start.line, "character": range_.start.character},
            "end": {"line": range_.end.line, "character": range_.end.character}}


def _cells(rng: random.Random, text: str) -> list[str]:
    """The text cut into one to four notebook cells at line boundaries."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    cuts = sorted({0, len(lines), *(rng.randint(0, len(lines)) for _ in range(rng.randint(0, 3)))})
    return ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:])] or [""]


@lru_cache(maxsize=None)
def _has_option(option: str) -> bool:
    """The CLI (being worked on concurrently) accepts `option` for `check`."""
    return option in cli._parser()._subparsers._group_actions[0].choices["check"]._option_string_actions


def _notebook_with_broken_cells(name: str, data: bytes, after: bytes, before: str) -> list[Failure]:
    diff = _excerpt_diff(data.decode("utf-8", "replace"), after.decode("utf-8", "replace"))
    try:
        old, new = Notebook(data.decode("utf-8").lstrip("\ufeff")), Notebook(after.decode("utf-8").lstrip("\ufeff"))
    except (UnicodeDecodeError, NotebookError):
        return [Failure(name, f"{name}: changed a notebook into one that cannot be read", diff)]
    broken = old.source.broken
    if not broken or len(old.cells) != len(new.cells):
        return [Failure(name, f"{name}: changed a file it could not analyse", diff)]
    if any(old.cells[i].text != new.cells[i].text for i in broken):
        return [Failure(name, f"{name}: a fix changed a cell that does not parse", diff)]
    if any(not new.cells[i].python.parses for i in range(len(new.cells)) if i not in broken):
        return [Failure(name, f"{name}: a fixed cell does not parse", diff)]
    return []


def _python_of(data: bytes, suffix: str) -> str | None:
    """The Python the CLI analyses in a file, or None when it is not text/not a notebook."""
    if b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text[1:] if text.startswith("\ufeff") else text
    if suffix == ".ipynb":
        try:
            return Notebook(text).source
        except NotebookError:
            return None
    return text


def _cli_exit(name: str, code: int, err: str, python: str | None) -> list[Failure]:
    """Exit 0 or 1 without an internal error; for one, the crash behind it (the CLI prints no
    traceback, so the file's Python is linted again here to find where it comes from)."""
    if code in (0, 1) and "Traceback" not in err and "internal error" not in err:
        return []
    match = re.search(r"internal error(?: while checking \S+)?: (\w+)", err)
    kind = f"internal {match.group(1)}" if match else f"exit {code}"
    behind = ""
    if match and python is not None:
        try:
            lint(python, "fuzz.py")
            api.fix_source(python, "fuzz.py", unsafe=True)  # the crash may come from a fixed text
        except Exception as error:  # noqa: BLE001
            behind = f" ({exception_failure('lint', error).signature})"
    return [Failure(name, f"cli: {kind}{behind}", f"via {name}\n{err[-3000:]}")]


LONG_FIX_CHAIN = 500


def _converges(text: str, unsafe: bool, diagnose=None) -> bool:
    """Fix-all stops after api.MAX_FIX_ROUNDS rounds by design; a text needing more (100 chained
    `.numpy()` calls lose one per round; 50 nested `np.sum` calls become `tf.reduce_sum` one per
    round, the text growing each time) is not a loop if it reaches a text no fix changes. A loop
    either comes back to an earlier text (fixes undoing each other) or keeps growing (a fix that
    brings its own diagnostic back), and is caught by the repeat or by the size and round limits."""
    seen = {text}
    limit = 4 * len(text) + 10_000
    try:
        for _ in range(LONG_FIX_CHAIN):
            new = api.fix_source(text, "fuzz.py", unsafe=unsafe, diagnose=diagnose, max_rounds=1)
            if new == text:
                return True
            if new in seen or len(new) > limit:
                return False
            seen.add(new)
            text = new
    except Exception:  # noqa: BLE001
        return False
    return False


def _fixable_codes(text: str, unsafe: bool) -> str:
    """The codes whose fixes `fix_source` would apply to `text` (for a non-idempotence signature)."""
    try:
        found = api.analyze(text, "fuzz.py")
    except Exception:  # noqa: BLE001
        return "?"
    return ",".join(sorted({d.code for d in found if api.chosen_fix(d, unsafe)})) or "none"


def _cli_file(name: str, data: bytes, after: bytes, before: str | None, suffix: str) -> list[Failure]:
    """The file after `--fix`: parses if it did, untouched if it could not be analysed, same BOM/endings.
    A notebook with a cell that does not parse has its other cells analysed (and fixed): then the
    broken cells must come out as they went in, and the rest must still parse."""
    if suffix == ".ipynb" and before is not None and not parses(before) and after != data:
        return _notebook_with_broken_cells(name, data, after, before)
    if before is None or not parses(before):
        if after != data:
            return [Failure(name, f"{name}: changed a file it could not analyse", _excerpt_diff(
                data.decode("utf-8", "replace"), after.decode("utf-8", "replace")))]
        return []
    if after == data:
        return []
    failures = []
    python_after = _python_of(after, suffix)
    if python_after is None or not parses(python_after):
        failures.append(Failure(name, f"{name}: fixed file does not parse", _excerpt_diff(before, python_after or "")))
    if data.startswith(b"\xef\xbb\xbf") != after.startswith(b"\xef\xbb\xbf"):
        failures.append(Failure(name, f"{name}: BOM lost or added", repr(after[:20])))
    if suffix == ".py" and b"\r\n" in data and not re.search(rb"(?<!\r)\n", data) and re.search(rb"(?<!\r)\n", after):
        failures.append(Failure(name, f"{name}: CRLF file gets LF lines", _excerpt_diff(before, python_after or "")))
    if suffix == ".ipynb":
        try:
            json.loads(after)
        except ValueError as error:
            failures.append(Failure(name, f"{name}: notebook is no longer JSON", str(error)))
    return failures


def _fix_repr(fix) -> str:
    return "\n".join(f"  {e.span} -> {e.new_text!r}" for e in fix.edits)


def _excerpt(text: str, line: int, around: int = 3) -> str:
    lines = doc_lines(text)
    low = max(line - 1 - around, 0)
    return "\n".join(f"{n + 1:5} | {lines[n][:200]}" for n in range(low, min(line + around, len(lines))))


def _excerpt_diff(old: str, new: str, limit: int = 60) -> str:
    import difflib

    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "before", "after", lineterm="", n=2)
    return "\n".join(line[:200] for line in list(diff)[:limit])


# ---------------------------------------------------------------------------------------------
# Known failures: reported to the lead, reproduced by strict-xfail tests in test_fuzz.py while open


@dataclass(frozen=True)
class KnownBug:
    id: str
    summary: str
    matches: Callable[[Failure], bool]


# Every bug found so far is fixed and has a regression test in test_fuzz.py (docs/reliability.md
# lists them). A stale entry would hide the same failure coming back, so fixed bugs leave this list.
KNOWN_BUGS: list[KnownBug] = [
]


def known_bug(failure: Failure) -> KnownBug | None:
    return next((bug for bug in KNOWN_BUGS if bug.matches(failure)), None)
