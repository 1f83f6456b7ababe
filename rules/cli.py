"""The `gradguard` command: `check` files for lost gradients (and fix them), explain a `rule`,
or start the language `server`.

Exit codes: 0 clean (or --exit-zero), 1 findings remain (or --diff has changes), 2 usage,
configuration, file-writing or internal error.
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import importlib
import io
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__, api, parallel, registry
from .cache import CACHE_DIR, ResultCache, result_key
from .config import DEFAULT_EXCLUDES, Config, ConfigError, GitIgnore, load_config, load_config_file
from .diagnostics import Diagnostic, Fix, Severity, Span
from .docs import has_fix, render_rule_doc
from .notebook import Notebook, NotebookError, relabel_lines
from .output import FORMATS, Finding, format_statistics, render
from .inference import Budget, JediResolver
from .lint import lint

PROGRESS_THRESHOLD = 50
ISSUES_URL = "https://github.com/gradguard/gradguard/issues"


class UsageError(Exception):
    """A mistake in the command line; reported in one line, exit 2."""


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the `gradguard` program itself, not a caller inside another process
        api.tune_garbage_collector()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["server"]:
            return _run_server(argv[1:])  # its options belong to the server, not to argparse
        return _dispatch(argv)
    except SystemExit as exit_:  # argparse: --help, --version, usage errors
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 2)
    except (ConfigError, UsageError) as error:
        _error(str(error))
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:  # `gradguard check | head`: the reader left, nothing to report
        _silence_stdout()
        return 1
    except Exception as error:  # noqa: BLE001 - the last line of defence: no tracebacks for users
        _error(f"internal error: {type(error).__name__}: {error}")
        _error(f"this is a bug in gradguard; please report it with the command you ran at {ISSUES_URL}")
        return 2


def _silence_stdout() -> None:
    # Python would otherwise complain again when it flushes stdout at exit.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _error(message: str) -> None:
    print(f"gradguard: {message}", file=sys.stderr)


def _dispatch(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "check":
        return run_check(args)
    if args.command == "rule":
        return run_rule(args)
    parser.print_help()
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradguard", description="Find TensorFlow code whose loss gets no gradient, and fix it."
    )
    parser.add_argument("--version", action="version", version=f"gradguard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_check(commands.add_parser("check", help="check files and folders (and --fix them)"))
    rule = commands.add_parser("rule", help="explain a rule, or list every rule with --all")
    rule.add_argument("code", nargs="?", help="a rule code (GG101) or name (numpy-method-on-tensor)")
    rule.add_argument("--all", action="store_true", help="list every rule")
    rule.add_argument("--format", choices=("text", "json"), default="text")
    commands.add_parser("server", help="start the language server (options are passed on to it)")
    return parser


def _add_check(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                       help="files or folders (*.py, *.ipynb); - reads stdin")
    check.add_argument("--format", choices=FORMATS, default="text")
    check.add_argument("--select", metavar="CODES", help="comma-separated code prefixes to check (replaces the config)")
    check.add_argument("--ignore", metavar="CODES", help="comma-separated code prefixes to skip (added to the config)")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix, also apply unsafe fixes; without, count them as fixable")
    check.add_argument("--diff", action="store_true", help="print the diff --fix would apply; write nothing")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("--config", metavar="PATH", help="use this pyproject.toml / gradguard.toml")
    check.add_argument("--stdin-filename", metavar="PATH", help="the name of the file read from stdin")
    check.add_argument("--no-cache", action="store_true",
                       help=f"analyse every file; do not read or write {CACHE_DIR}/ (results of unchanged files)")
    check.add_argument("--no-jedi", action="store_true",
                       help="analyse each file alone: do not follow calls into other modules with jedi")
    check.add_argument("-j", "--jobs", type=_positive_int, metavar="N",
                       help="check files in N processes (default: one per core, fewer for small inputs)")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    check.add_argument("--version", action="version", version=f"gradguard {__version__}")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes (1 or more), got {text!r}")
    return value


# ---------------------------------------------------------------------------------------------
# gradguard server


def _run_server(args: list[str]) -> int:
    try:
        server = importlib.import_module("gradguard.server")
    except ImportError as error:
        _error(f"the language server is not available ({error}); reinstall gradguard")
        return 2
    server_main = getattr(server, "main", None)
    if server_main is None:
        _error("the language server is not available (gradguard.server has no main); reinstall gradguard")
        return 2
    result = server_main(args)
    return result if isinstance(result, int) else 0


# ---------------------------------------------------------------------------------------------
# gradguard rule


def run_rule(args: argparse.Namespace) -> int:
    rules = registry.all_rules()
    if args.all:
        _print_rule_list(rules, args.format)
        return 0
    if not args.code:
        raise UsageError("rule: give a rule code (e.g. GG101) or --all")
    rule = registry.rule_by_code(args.code) or next((r for r in rules if r.name == args.code.lower()), None)
    if rule is None:
        choices = [r.code for r in rules] + [r.name for r in rules]
        close = difflib.get_close_matches(args.code.upper(), choices, n=3, cutoff=0.5)
        close += difflib.get_close_matches(args.code.lower(), choices, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else "; see `gradguard rule --all`"
        raise UsageError(f"unknown rule {args.code!r}{hint}")
    sys.stdout.write(render_rule_doc(rule))
    return 0


def _print_rule_list(rules, fmt: str) -> None:
    if fmt == "json":
        rows = [
            {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity.value,
             "fix_safety": r.fix_safety, "url": r.doc_url()}
            for r in rules
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max((len(r.name) for r in rules), default=0)
    for r in rules:
        fix = "fix" if has_fix(r) else "   "
        print(f"{r.code}  {r.name:<{width}}  {r.severity.value:<7}  {fix}  {r.summary}")


# ---------------------------------------------------------------------------------------------
# gradguard check: reading


@dataclass
class Document:
    """One checked file: its bytes as read (to detect changes) and its text (BOM removed)."""

    display: str
    path: Path | None          # None for stdin
    raw: bytes
    text: str
    bom: bool = False

    @property
    def is_notebook(self) -> bool:
        return self.display.endswith(".ipynb")

    def encode(self, text: str) -> bytes:
        if self.is_notebook:
            text = _json_layout_like(self.text, text)
        return ("\ufeff" if self.bom else "").encode() + text.encode("utf-8")


def _json_layout_like(original: str, text: str) -> str:
    """Notebook JSON written back with the original's line endings and final newline.

    Notebook.apply writes "\n" and a final newline; a notebook saved on Windows (CRLF) would
    otherwise change on every line. Newlines inside JSON strings are escaped, so every raw
    newline is layout and safe to convert.
    """
    if "\r\n" in original and not re.search(r"(?<!\r)\n", original):
        text = text.replace("\n", "\r\n")
    if not original.endswith("\n"):
        text = text.rstrip("\r\n")
    return text


def decode(display: str, path: Path | None, raw: bytes) -> Document:
    """A Document, or UnicodeError with a message fit for the user."""
    if b"\x00" in raw:
        raise UnicodeError("binary file (contains NUL bytes); not checked")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        raise UnicodeError(f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start}); not checked") from None
    bom = text.startswith("\ufeff")
    return Document(display, path, raw, text[1:] if bom else text, bom)


def _file_finding(display: str, message: str) -> Finding:
    return display, "", Diagnostic("E902", Severity.ERROR, message, Span(1, 0, 1, 0))


# ---------------------------------------------------------------------------------------------
# gradguard check: analysis and the fix loop


def _python(document_text: str, is_notebook: bool) -> str:
    return Notebook(document_text).source if is_notebook else document_text


@dataclass
class FixResult:
    text: str           # the document text after every round (notebook JSON for notebooks)
    fixed: int          # fixes applied
    diagnostics: list[Diagnostic]  # what remains, positions in the fixed text


def fix_document(text: str, is_notebook: bool, lint_python: Callable[[str], list[Diagnostic]],
                 unsafe: bool) -> FixResult:
    """Apply preferred fixes, re-analyse, repeat until nothing changes (at most 10 rounds)."""
    fixed = 0
    newline = "\n" if is_notebook else api.newline_of(text)  # notebook cells always use "\n"
    diagnostics = lint_python(_python(text, is_notebook))
    for _ in range(api.MAX_FIX_ROUNDS):
        fixes = [api.with_newline(fix, newline) for d in diagnostics if (fix := api.chosen_fix(d, unsafe))]
        new_text, applied = _apply(text, fixes, is_notebook)
        if not applied or _python(new_text, is_notebook) == _python(text, is_notebook):
            break
        text, fixed = new_text, fixed + applied
        diagnostics = lint_python(_python(text, is_notebook))
    return FixResult(text, fixed, diagnostics)


def _apply(text: str, fixes: list[Fix], is_notebook: bool) -> tuple[str, int]:
    """The text with the non-conflicting fixes applied, and how many fixes that was."""
    if not is_notebook:
        chosen = api.non_conflicting_fixes(fixes)
        return api.apply_fixes(text, chosen), len(chosen)
    notebook = Notebook(text)
    chosen = api.non_conflicting_fixes([fix for fix in fixes if _fits_in_cells(notebook, fix)])
    return (notebook.apply_fixes(chosen) if chosen else text), len(chosen)


def _fits_in_cells(notebook: Notebook, fix: Fix) -> bool:
    try:
        notebook.to_cell_edits(fix.edits)
    except NotebookError:
        return False  # an edit across two cells cannot be written back
    return True


# ---------------------------------------------------------------------------------------------
# gradguard check: writing


CHANGED_ON_DISK = "changed on disk since it was read; fixes not written"


def write_atomic(path: Path, expected: bytes, data: bytes) -> str | None:
    """Replace the file's content; None on success, else why nothing was written.

    Refuses when the file changed since it was read (an editor saved meanwhile; checked again
    just before the rename), is read-only, or has other hard links (a rename would silently
    leave them with the old text). Writes through a symlink to its target, keeps the permission
    bits and (where allowed) the owner, and never leaves a half-written file: temp file in the
    same folder, fsync, os.replace, fsync of the folder. Tests: tests/test_fix_safety.py.
    """
    target = _resolve(path)
    if target is None:  # became a symlink loop since it was read
        return "symlink loop; fixes not written"
    try:
        info = target.stat()
        if target.read_bytes() != expected:
            return CHANGED_ON_DISK
        if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
            return "file is read-only; fixes not written"
        if info.st_nlink > 1:
            return f"file has {info.st_nlink - 1} other hard link(s) that a rewrite would not update; fixes not written"
        if not _replace(target, data, info, lambda: target.read_bytes() == expected):
            return CHANGED_ON_DISK
    except OSError as error:
        return f"cannot write fixes: {error.strerror or error}"
    return None


def _replace(target: Path, data: bytes, info: os.stat_result, unchanged: Callable[[], bool]) -> bool:
    """Write `data` next to `target` and rename it over `target`; False (nothing written) when
    `unchanged()` says the target changed while the temp file was being written."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".gradguard-tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(info.st_mode))
        _keep_owner(temp, info)
        if not unchanged():  # an editor saved during the write: its text wins
            Path(temp).unlink(missing_ok=True)
            return False
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)
    return True


def _keep_owner(temp: str, info: os.stat_result) -> None:
    """The new file belongs to the old one's owner and group (root fixing a user's file)."""
    if (os.stat(temp).st_uid, os.stat(temp).st_gid) == (info.st_uid, info.st_gid) or not hasattr(os, "chown"):
        return
    try:
        os.chown(temp, info.st_uid, info.st_gid)
    except OSError:
        pass  # not allowed (not root): the file keeps its content and mode, owned by whoever fixed it


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (a crash right after it could otherwise lose it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not supported here (some file systems, Windows)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# gradguard check: finding files


@dataclass
class Walk:
    config: Config
    warn: Callable[[str], None]
    files: list[tuple[str, Path]] = field(default_factory=list)   # (display, path)
    seen: set[Path] = field(default_factory=set)

    def add_argument(self, argument: str) -> bool:
        """Collect the files of one PATH argument; False when it does not exist."""
        path = Path(argument)
        if not path.exists() and not path.is_symlink():
            return False
        root = project_root(path, self.config)
        if path.is_symlink() and _resolve(path) is None:  # was an internal error: fuzzing/test_fix_safety
            self.warn(f"{argument}: symlink loop; skipped")
        elif path.is_symlink() and not _inside(path.resolve(), root):
            self.warn(f"{argument}: symlink to {path.resolve()} points outside the project; skipped")
        elif path.is_dir():
            self._walk(path, root, _gitignores_above(path, root))
        elif not self.config.excluded(path):  # config excludes apply even to named files (pre-commit)
            self._add(argument, path)
        return True

    def _add(self, display: str, path: Path) -> None:
        real = path.resolve()
        if real not in self.seen:
            self.seen.add(real)
            self.files.append((display, path))

    def _walk(self, folder: Path, root: Path, gitignore: GitIgnore) -> None:
        real = folder.resolve()
        if real in self.seen:
            return  # a symlink loop, or a folder given twice
        self.seen.add(real)
        gitignore = gitignore.extended(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            self.warn(f"{folder}: cannot list folder: {error.strerror or error}")
            return
        for entry in entries:
            self._visit(Path(folder, entry.name), entry, root, gitignore)

    def _visit(self, path: Path, entry: os.DirEntry, root: Path, gitignore: GitIgnore) -> None:
        try:
            is_dir = entry.is_dir()
        except OSError:  # ELOOP: a symlink loop made the whole run an internal error before
            if not self._excluded(path, False, gitignore):
                self.warn(f"{path}: symlink loop; skipped")
            return
        if self._excluded(path, is_dir, gitignore):
            return
        if entry.is_symlink() and not _inside(path.resolve(), root):
            self.warn(f"{path}: symlink to {path.resolve()} points outside the project; skipped")
        elif is_dir:
            self._walk(path, root, gitignore)
        elif entry.is_file() and path.suffix in (".py", ".ipynb"):
            self._add(str(path), path)

    def _excluded(self, path: Path, is_dir: bool, gitignore: GitIgnore) -> bool:
        if path.name in DEFAULT_EXCLUDES:
            return True
        return self.config.excluded(path, is_dir) or gitignore.ignored(path, is_dir)


def _resolve(path: Path) -> Path | None:
    """Where a symlink leads, or None for a loop (RuntimeError before Python 3.13, then OSError)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def project_root(path: Path, config: Config) -> Path:
    """The folder symlinks must stay in: the config's, else the nearest with .git, else the path's."""
    absolute = Path(os.path.abspath(path))
    if config.root is not None and _inside(absolute, config.root):
        return config.root
    start = absolute if absolute.is_dir() and not absolute.is_symlink() else absolute.parent
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(folder))
    except ValueError:
        try:
            path.resolve().relative_to(folder.resolve())
        except ValueError:
            return False
    return True


def _gitignores_above(folder: Path, root: Path) -> GitIgnore:
    """The .gitignore files between the project root and `folder` (exclusive) apply inside it."""
    gitignore = GitIgnore()
    absolute = Path(os.path.abspath(folder))
    try:
        parts = absolute.relative_to(os.path.abspath(root)).parts
    except ValueError:
        return gitignore
    current = Path(os.path.abspath(root))
    for part in parts:
        gitignore = gitignore.extended(current)
        current = current / part
    return gitignore


# ---------------------------------------------------------------------------------------------
# gradguard check


@dataclass
class FileOutcome:
    """One file's share of a CheckRun, sent back from a worker process."""

    findings: list[Finding]
    diffs: list[str]
    fixed: int
    failed: bool
    crashed: bool
    errors: list[str]  # printed by the parent, in the order of the files
    results: list[tuple[Path, str, list[Diagnostic]]]  # for the result cache


@dataclass
class CheckRun:
    args: argparse.Namespace
    config: Config
    findings: list[Finding] = field(default_factory=list)
    diffs: list[str] = field(default_factory=list)
    fixed: int = 0
    failed: bool = False   # something that makes the exit code 2
    report_stream: object = None  # stdout, or stderr when stdout carries the fixed stdin
    crashed: bool = False  # the analyzer raised on some file
    resolvers: dict[Path, JediResolver] = field(default_factory=dict)  # one per project root
    deferred_errors: list[str] | None = None  # in a worker: errors for the parent to print
    results: list[tuple[Path, str, list[Diagnostic]]] = field(default_factory=list)  # (path, key, found)
    caches: dict[Path, ResultCache] = field(default_factory=dict)  # one per project root

    def merge(self, outcome: "FileOutcome") -> None:
        """Take in what a worker process found in one file."""
        for message in outcome.errors:
            _error(message)
        self.findings.extend(outcome.findings)
        self.diffs.extend(outcome.diffs)
        self.fixed += outcome.fixed
        self.failed |= outcome.failed
        self.crashed |= outcome.crashed
        self.results.extend(outcome.results)

    def fail(self, message: str) -> None:
        if self.deferred_errors is not None:
            self.deferred_errors.append(message)
        else:
            _error(message)
        self.failed = True

    @property
    def writes(self) -> bool:
        return self.args.fix and not self.args.diff

    def check_document(self, document: Document) -> str | None:
        """Report one document; returns its fixed text when it changed."""
        config_path = document.display if document.path is None else str(document.path)
        cross_module = self._cross_module(document)
        lint_python = lambda source: lint(source, document.display, self.config, config_path, **cross_module)  # noqa: E731
        try:
            if not (self.args.fix or self.args.diff):
                diagnostics = lint_python(_python(document.text, document.is_notebook))
                self._remember(document, diagnostics, cross_module.get("budget"))
                self._report(document, document.text, diagnostics)
                return None
            result = fix_document(document.text, document.is_notebook, lint_python, self.args.unsafe_fixes)
        except NotebookError as error:
            self.findings.append(_file_finding(document.display, str(error)))
            return None
        return self._after_fix(document, result, lint_python)

    # -- the result cache ------------------------------------------------------------------------

    @property
    def caching(self) -> bool:
        return not (self.args.no_cache or self.args.fix or self.args.diff)

    def cache_key(self, document: Document) -> str:
        jedi = not self.args.no_jedi and self.config.jedi
        return result_key(document.raw, f"{self.config!r}|{document.display}|jedi={jedi}")

    def report_cached(self, item: tuple[str, Path]) -> bool:
        """Report a file from the cache when its bytes and settings are unchanged since it was stored."""
        display, path = item
        cache = self._cache(path)
        if cache.empty:
            return False  # the first run: nothing to read the file for
        try:
            document = decode(display, path, path.read_bytes())
        except (OSError, UnicodeError):
            return False  # checking it reports the problem
        found = cache.lookup(path, self.cache_key(document))
        if found is not None:
            self._report(document, document.text, found)
        return found is not None

    def _remember(self, document: Document, diagnostics: list[Diagnostic], budget: Budget | None) -> None:
        # A result jedi helped with depends on other files: not stored.
        if self.caching and document.path is not None and (budget is None or budget.asked == 0):
            self.results.append((document.path, self.cache_key(document), diagnostics))

    def save_results(self) -> None:
        for path, key, diagnostics in self.results:
            self._cache(path).store(path, key, diagnostics)
        for cache in self.caches.values():
            cache.save()

    def _cache(self, path: Path) -> ResultCache:
        root = project_root(path, self.config)
        if root not in self.caches:
            self.caches[root] = ResultCache(root)
        return self.caches[root]

    def _cross_module(self, document: Document) -> dict:
        """The jedi resolver of the document's project and a fresh time budget, unless jedi is off."""
        if self.args.no_jedi or not self.config.jedi or document.path is None:
            return {}
        root = project_root(document.path, self.config)
        if root not in self.resolvers:
            self.resolvers[root] = JediResolver(str(root))
        return {"resolver": self.resolvers[root], "budget": Budget(self.config.jedi_time_budget)}

    def _after_fix(self, document: Document, result: FixResult, lint_python) -> str | None:
        changed = result.text != document.text
        if self.args.diff:
            self.diffs.extend(_diff(document, result.text) if changed else [])
            self.fixed += result.fixed
            return None
        if changed and document.path is not None:
            problem = write_atomic(document.path, document.raw, document.encode(result.text))
            if problem:
                self.fail(f"{document.display}: {problem}")
                self._report(document, document.text, lint_python(_python(document.text, document.is_notebook)))
                return None
        self.fixed += result.fixed
        self._report(document, result.text, result.diagnostics)
        return result.text if changed else None

    def _report(self, document: Document, text: str, diagnostics: list[Diagnostic]) -> None:
        # Text output shows notebook positions per cell, so it needs the Notebook.
        source = Notebook(text) if document.is_notebook else text
        if isinstance(source, Notebook):
            diagnostics = [dataclasses.replace(d, message=relabel_lines(d.message, source.cell_of_line))
                           for d in diagnostics]
        self.findings.extend((document.display, source, d) for d in diagnostics)


def _diff(document: Document, new_text: str) -> list[str]:
    if not document.is_notebook:
        return [_unified(document.text, new_text, document.display)]
    old_cells, new_cells = Notebook(document.text).cell_texts(), Notebook(new_text).cell_texts()
    return [
        _unified(old_cells[index], new_cells[index], f"{document.display}:cell {index + 1}")
        for index in old_cells
        if old_cells[index] != new_cells.get(index)
    ]


def _unified(old: str, new: str, label: str) -> str:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), label, label)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def run_check(args: argparse.Namespace) -> int:
    config = _load_config(args).with_cli(args.select, args.ignore)
    run = CheckRun(args, config)
    walk = Walk(config, warn=_error)
    stdin_requested = False
    for argument in args.paths:
        if argument == "-":
            stdin_requested = True
        elif not walk.add_argument(argument):
            run.fail(f"{argument}: no such file or folder")
    if stdin_requested:
        _check_stdin(run)
    elif not walk.files and not run.failed:
        _error("warning: no Python files found under the given paths")
    _check_files(run, walk.files)
    run.save_results()
    if run.crashed:
        _error(f"this is a bug in gradguard; please report it with the file that caused it at {ISSUES_URL}")
    _print_report(run)
    return _exit_code(run)


def _load_config(args: argparse.Namespace) -> Config:
    if args.config:
        return load_config_file(Path(args.config))
    start = args.stdin_filename if args.paths == ["-"] and args.stdin_filename else next(
        (p for p in args.paths if p != "-"), "."
    )
    return load_config(Path(start))[0]


def _check_files(run: CheckRun, files: list[tuple[str, Path]]) -> None:
    if run.caching:
        files = [item for item in files if not run.report_cached(item)]
    jobs = parallel.worker_count(run.args.jobs, parallel.file_sizes(path for _, path in files))
    if jobs == 1:
        for item in _progress(files, len(files), run.args.quiet):
            _check_one(run, item)
        return
    done = 0
    try:
        outcomes = parallel.ordered_map(_check_in_worker, files, jobs, _start_worker, (run.args, run.config))
        for outcome in _progress(outcomes, len(files), run.args.quiet):
            run.merge(outcome)
            done += 1
    except parallel.WorkerDied as error:
        _error(f"warning: a worker process died ({error}); checking the other {len(files) - done} files here")
        for item in files[done:]:
            _check_one(run, item)


def _check_one(run: CheckRun, item: tuple[str, Path]) -> None:
    display, path = item
    try:
        _check_file(run, display, path)
    except Exception as error:  # noqa: BLE001 - one file crashing the analyzer must not stop the rest
        run.fail(f"internal error while checking {display}: {type(error).__name__}: {error}")
        run.crashed = True


_worker_run: CheckRun | None = None  # in a worker process: its own run (and jedi caches)


def _start_worker(args: argparse.Namespace, config: Config) -> None:
    global _worker_run
    _worker_run = CheckRun(args, config)


def _check_in_worker(item: tuple[str, Path]) -> "FileOutcome":
    # A fresh run per file (empty findings and counts) that keeps the worker's jedi resolvers.
    run = CheckRun(_worker_run.args, _worker_run.config, resolvers=_worker_run.resolvers, deferred_errors=[])
    _check_one(run, item)
    return FileOutcome(run.findings, run.diffs, run.fixed, run.failed, run.crashed, run.deferred_errors, run.results)


def _check_file(run: CheckRun, display: str, path: Path) -> None:
    try:
        raw = path.read_bytes()
    except OSError as error:
        run.findings.append(_file_finding(display, f"cannot read: {error.strerror or error}"))
        return
    try:
        document = decode(display, path, raw)
    except UnicodeError as error:
        run.findings.append(_file_finding(display, str(error)))
        return
    run.check_document(document)


def _check_stdin(run: CheckRun) -> None:
    display = run.args.stdin_filename or "-"
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        document = decode(display, None, raw)
    except UnicodeError as error:
        run.findings.append(_file_finding(display, str(error)))
        if run.writes:  # an editor piping through `--fix` must get its text back unchanged
            sys.stdout.flush()
            sys.stdout.buffer.write(raw)
            run.report_stream = sys.stderr
        return
    fixed = run.check_document(document)
    if run.writes:  # like ruff: the fixed code goes to stdout, the report to stderr
        # As bytes, with the BOM the input had (document.text has it removed).
        data = document.encode(fixed if fixed is not None else document.text)
        sys.stdout.flush()
        if hasattr(sys.stdout, "buffer"):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data.decode("utf-8"))
        run.report_stream = sys.stderr


def _progress(items: Iterable, total: int, quiet: bool) -> Iterator:
    show = total > PROGRESS_THRESHOLD and not quiet and sys.stderr.isatty()
    for number, item in enumerate(items, 1):
        if show:
            sys.stderr.write(f"\rgradguard: checking {number}/{total} files")
            sys.stderr.flush()
        yield item
    if show:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def _print_report(run: CheckRun) -> None:
    args = run.args
    stream = run.report_stream or sys.stdout
    if args.diff:
        sys.stdout.write("".join(run.diffs))
        if not args.quiet and run.fixed:
            print(f"Would fix {run.fixed} error{'s' if run.fixed != 1 else ''}.", file=sys.stderr)
        return
    findings = sorted(run.findings, key=lambda f: (f[0], f[2].span, f[2].code))
    if args.statistics:
        stream.write(format_statistics(findings, unsafe_fixes=args.unsafe_fixes, as_json=args.format == "json"))
        return
    fixed = run.fixed if args.fix else 0
    # "All checks passed!" would be a lie when some file could not be checked or written.
    summary = not args.quiet and not (run.failed and not findings)
    stream.write(render(args.format, findings, unsafe_fixes=args.unsafe_fixes, summary=summary, fixed=fixed))


def _exit_code(run: CheckRun) -> int:
    if run.failed:
        return 2
    if run.args.diff:
        return 1 if run.diffs else 0
    return 0 if run.args.exit_zero or not run.findings else 1


if __name__ == "__main__":
    sys.exit(main())
