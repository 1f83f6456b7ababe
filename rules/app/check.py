"""`gradguard check`: every file's findings (and fixes), in one process or one per core."""
from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic
from ..project.config import Config, Configs, load_config_file
from ..project.files import Walk, import_root, project_root
from ..source.notebook import Notebook, NotebookError, relabel_lines
from ..source.text import split_lines
from . import extras, parallel
from .arguments import ISSUES_URL, print_error
from .cache import ResultCache, result_key
from .files import Document, decode, file_finding, write_atomic
from .output import Finding, diff_summary, format_statistics, render

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:
    from ..fix.loop import FixOutcome
    from ..model.inference import Budget, JediResolver

PROGRESS_THRESHOLD = 50


def _python(document_text: str, is_notebook: bool) -> str:
    return Notebook(document_text).source if is_notebook else document_text


def fix_document(text: str, is_notebook: bool, lint_python: Callable[[str], list[Diagnostic]],
                 unsafe: bool) -> FixOutcome:
    """The document (Python text or notebook JSON) after the one fix loop."""
    from ..fix.loop import NotebookJson, PythonText, fix_until_stable  # only --fix and --diff

    target = NotebookJson(text) if is_notebook else PythonText(text)
    return fix_until_stable(target, lint_python, unsafe=unsafe)




@dataclass(eq=False, repr=False)
class FileOutcome:
    """One file's share of a CheckRun, sent back from a worker process."""

    findings: list[Finding]
    diffs: list[str]
    fixed: int
    failed: bool
    crashed: bool
    errors: list[str]  # printed by the parent, in the order of the files
    results: list[tuple[Path, str, list[Diagnostic]]]  # for the result cache


@dataclass(eq=False, repr=False)
class CheckRun:
    args: argparse.Namespace
    config: Config  # the first PATH's (stdin's); each file has its own: config_for
    findings: list[Finding] = field(default_factory=list)
    diffs: list[str] = field(default_factory=list)
    fixed: int = 0
    failed: bool = False   # something that makes the exit code 2
    report_stream: object = None  # stdout, or stderr when stdout carries the fixed stdin
    crashed: bool = False  # the analyzer raised on some file
    resolvers: dict[Path, JediResolver] = field(default_factory=dict)  # one per import root
    roots: dict[str, Path] = field(default_factory=dict)  # a folder's import root (see _import_root)
    deferred_errors: list[str] | None = None  # in a worker: errors for the parent to print
    results: list[tuple[Path, str, list[Diagnostic]]] = field(default_factory=list)  # (path, key, found)
    caches: dict[Path, ResultCache] = field(default_factory=dict)  # one per project root
    configs: Configs | None = None  # each file's configuration (None: `config` for every file)

    def config_for(self, path: Path | None) -> Config:
        """The configuration of one file: its nearest [tool.gradguard] with the CLI's options over it."""
        if path is None or self.configs is None:
            return self.config
        return self.configs.for_path(path)

    def merge(self, outcome: "FileOutcome") -> None:
        """Take in what a worker process found in one file."""
        for message in outcome.errors:
            print_error(message)
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
            print_error(message)
        self.failed = True

    @property
    def writes(self) -> bool:
        return self.args.fix and not self.args.diff

    def check_document(self, document: Document) -> str | None:
        """Report one document; returns its fixed text when it changed."""
        from ..api import lint  # imported by now (_load_analyzer)

        config_path = document.display if document.path is None else str(document.path)
        config = self.config_for(document.path)
        cross_module = self._cross_module(document, config)
        lint_python = lambda source: lint(source, document.display, config, config_path, **cross_module)  # noqa: E731
        try:
            if not (self.args.fix or self.args.diff):
                diagnostics = lint_python(_python(document.text, document.is_notebook))
                self._remember(document, diagnostics, cross_module.get("budget"))
                self._report(document, document.text, diagnostics)
                return None
            result = fix_document(document.text, document.is_notebook, lint_python, self.args.unsafe_fixes)
        except NotebookError as error:
            self.findings.append(file_finding(document.display, str(error)))
            return None
        return self._after_fix(document, result, lint_python)

    # -- the result cache ------------------------------------------------------------------------

    @property
    def caching(self) -> bool:
        return not (self.args.no_cache or self.args.fix or self.args.diff)

    def cache_key(self, document: Document) -> str:
        config = self.config_for(document.path)
        jedi = not self.args.no_jedi and config.jedi
        return result_key(document.raw, f"{config!r}|{document.display}|jedi={jedi}")

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

    def _cross_module(self, document: Document, config: Config) -> dict:
        """The jedi resolver of the document's import root and a fresh time budget, unless jedi is off."""
        if self.args.no_jedi or not config.jedi or document.path is None:
            return {}
        from ..model.budget import Budget
        from .resolver import LazyResolver

        root = self._import_root(document.path)
        if root not in self.resolvers:
            self.resolvers[root] = LazyResolver(str(root))  # jedi only for a file that asks
        return {"resolver": self.resolvers[root], "budget": Budget(config.jedi_time_budget)}

    def _import_root(self, path: Path) -> Path:
        """import_root(path): where jedi resolves the file's imports from, whatever the configuration
        and the order of the files; looked up once per folder (it stats each folder above)."""
        folder = os.path.dirname(os.path.abspath(path))
        root = self.roots.get(folder)
        if root is None:
            root = self.roots[folder] = import_root(path)
        return root

    def _after_fix(self, document: Document, result: FixOutcome, lint_python) -> str | None:
        fixed_text = result.target.text
        changed = fixed_text != document.text
        if self.args.diff:
            self.diffs.extend(_diff(document, fixed_text) if changed else [])
            self.fixed += result.fixed
            self._report(document, fixed_text, result.diagnostics)  # what the fixes leave: its unsafe fixes
            return None
        if changed and document.path is not None:
            problem = write_atomic(document.path, document.raw, document.encode(fixed_text))
            if problem:
                self.fail(f"{document.display}: {problem}")
                self._report(document, document.text, lint_python(_python(document.text, document.is_notebook)))
                return None
        self.fixed += result.fixed
        self._report(document, fixed_text, result.diagnostics)
        return fixed_text if changed else None

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
    import difflib  # only for --diff

    lines = difflib.unified_diff(split_lines(old), split_lines(new), label, label)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def run_check(args: argparse.Namespace) -> int:
    configs = _configs(args)
    config = configs.for_path(_first_path(args))
    run = CheckRun(args, config, configs=configs)
    walk = Walk(configs, warn=print_error)
    stdin_requested = False
    for argument in args.paths:
        if argument == "-":
            stdin_requested = True
        elif extras.unreadable(argument):
            run.fail(f"{argument}: {extras.unreadable(argument)}")
        elif not walk.add_argument(argument):
            run.fail(f"{argument}: no such file or folder")
    shown = extras.before_check(args, config, walk.files)  # --show-files, --show-settings
    if shown is not None:
        return shown
    if stdin_requested:
        _check_stdin(run)
    elif not walk.files and not run.failed:
        print_error("warning: no Python files found under the given paths")
    _check_files(run, walk.files)
    run.save_results()
    finished = extras.after_check(run, walk.files)  # --add-noqa; GG900
    if finished is not None:
        return finished
    if run.crashed:
        print_error(f"this is a bug in gradguard; please report it with the file that caused it at {ISSUES_URL}")
    _print_report(run)
    return _exit_code(run)


def _configs(args: argparse.Namespace) -> Configs:
    """Each file's configuration: its nearest [tool.gradguard], or the --config file for all; with
    the command line's options over it."""
    fixed = load_config_file(Path(args.config)) if args.config else None
    return Configs(fixed=fixed, adjust=functools.partial(_with_cli, args))


def _with_cli(args: argparse.Namespace, config: Config) -> Config:
    return extras.configure(config.with_cli(args.select, args.ignore), args)


def _first_path(args: argparse.Namespace) -> str:
    """Where the configuration of stdin (and of --show-settings) is looked up."""
    if args.paths == ["-"] and args.stdin_filename:
        return args.stdin_filename
    return next((p for p in args.paths if p != "-"), ".")


def _load_analyzer(args: argparse.Namespace) -> None:
    """Import the analyzer once there is a document to analyse, before any worker forks (a check
    whose files all come from the result cache imports none of it); in the `gradguard` program
    (`tune_memory`: the process is ours) the garbage collector is tuned then, with it loaded."""
    from .. import api

    if getattr(args, "tune_memory", False):
        api.tune_garbage_collector()


def _check_files(run: CheckRun, files: list[tuple[str, Path]]) -> None:
    if run.caching:
        files = [item for item in files if not run.report_cached(item)]
    if files:
        _load_analyzer(run.args)
    sizes = parallel.file_sizes(path for _, path in files)
    jobs = parallel.worker_count(run.args.jobs, sizes)
    if getattr(run.args, "tune_memory", False) and len(files) > 1 and sum(sizes) >= parallel.MIN_BYTES_PER_WORKER:
        parallel.keep_freed_memory()  # before the workers fork: they inherit it
    if jobs == 1:
        for item in _progress(files, len(files), run.args.quiet):
            _check_one(run, item)
        return
    done = 0
    try:
        outcomes = parallel.ordered_map(_check_in_worker, files, jobs, _start_worker,
                                        (run.args, run.config, run.configs), costs=sizes)
        for outcome in _progress(outcomes, len(files), run.args.quiet):
            run.merge(outcome)
            done += 1
    except parallel.WorkerDied as error:
        print_error(f"warning: a worker process died ({error}); checking the other {len(files) - done} files here")
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


def _start_worker(args: argparse.Namespace, config: Config, configs: Configs | None = None) -> None:
    global _worker_run
    _worker_run = CheckRun(args, config, configs=configs)


def _check_in_worker(item: tuple[str, Path]) -> "FileOutcome":
    # A fresh run per file (empty findings and counts) that keeps the worker's jedi resolvers and roots.
    run = CheckRun(_worker_run.args, _worker_run.config, resolvers=_worker_run.resolvers, roots=_worker_run.roots,
                   deferred_errors=[], configs=_worker_run.configs)
    _check_one(run, item)
    return FileOutcome(run.findings, run.diffs, run.fixed, run.failed, run.crashed, run.deferred_errors, run.results)


def _check_file(run: CheckRun, display: str, path: Path) -> None:
    try:
        raw = path.read_bytes()
    except OSError as error:
        run.findings.append(file_finding(display, f"cannot read: {error.strerror or error}"))
        return
    try:
        document = decode(display, path, raw)
    except UnicodeError as error:
        run.findings.append(file_finding(display, str(error)))
        return
    run.check_document(document)


def _check_stdin(run: CheckRun) -> None:
    _load_analyzer(run.args)
    display = run.args.stdin_filename or "-"
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        document = decode(display, None, raw)
    except UnicodeError as error:
        run.findings.append(file_finding(display, str(error)))
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
        message = diff_summary(run.fixed, run.findings, args.unsafe_fixes)
        if not args.quiet and message:
            print(message, file=sys.stderr)
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
