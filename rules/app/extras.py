"""What `gradguard check` does besides checking, called from check.run_check at three points:
the CLI's settings over the configuration (`configure`), the runs that print instead of checking
(`before_check`: --show-settings, --show-files), and the passes over the finished findings
(`after_check`: --add-noqa, the unused-suppression check GG900).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections import defaultdict
from pathlib import Path

from ..diagnostics import Diagnostic, Edit, Fix, Safety
from ..project.config import Config
from ..project.files import import_root, resolve
from ..report.suppression import suppression_edit, unused_suppressions
from ..source.notebook import Notebook, NotebookError
from .files import decode, write_atomic

NOT_SUPPRESSIBLE = ("E999", "E902")


def configure(config: Config, args: argparse.Namespace) -> Config:
    """--extend-select, --exclude and --extend-exclude over the configuration (after --select and
    --ignore, which Config.with_cli applies)."""
    extend = tuple(getattr(args, "extend_select_codes", ()) or ())
    if extend:
        config = dataclasses.replace(config, select=config.select + extend)
    if getattr(args, "exclude", None) is not None:
        config = dataclasses.replace(config, exclude=tuple(args.exclude))
    if getattr(args, "extend_exclude", None):
        config = dataclasses.replace(config, extend_exclude=config.extend_exclude + tuple(args.extend_exclude))
    return config


def unreadable(argument: str) -> str | None:
    """Why a PATH given on the command line cannot be read at all (None when it can be tried)."""
    path = Path(argument)
    if path.is_symlink() and resolve(path) is None:
        return "symlink loop; cannot be read"
    if path.is_symlink() and not path.exists():
        return f"symlink to {os.readlink(path)}, which does not exist; cannot be read"
    return None


# ---------------------------------------------------------------------------------------------
# --show-settings, --show-files


def before_check(args: argparse.Namespace, config: Config, files: list[tuple[str, Path]]) -> int | None:
    """The exit code of a run that only prints (--show-files, --show-settings), else None."""
    if getattr(args, "show_files", False):
        for _, path in sorted(files, key=lambda item: os.path.abspath(item[1])):
            print(os.path.abspath(path))
        return 0
    if getattr(args, "show_settings", False):
        first = files[0][0] if files else (args.stdin_filename or "-")
        sys.stdout.write(show_settings(config, first, args))
        return 0
    return None


def show_settings(config: Config, first: str, args: argparse.Namespace) -> str:
    settings_file = None
    if config.root is not None:
        for name in ("pyproject.toml", "gradguard.toml"):
            if (config.root / name).is_file():
                settings_file = config.root / name
                break
    if args.config:
        settings_file = Path(args.config).absolute()
    names = config.names
    rows = [
        f"Resolved settings for: {first}",
        f"Settings path: {settings_file if settings_file else '(none: defaults)'}",
        "",
        f"select = {list(config.select)}",
        f"ignore = {list(config.ignore)}",
        f"per-file-ignores = { {glob: list(codes) for glob, codes in config.per_file_ignores} }",
        f"severity = { {code: level.value for code, level in config.severity.items()} }",
        f"exclude = {list(config.exclude)}",
        f"extend-exclude = {list(config.extend_exclude)}",
        f"jedi = {str(config.jedi and not args.no_jedi).lower()}",
        f"jedi-time-budget = {config.jedi_time_budget}",
        f"model-names = {list(names.extra_model_names)}",
        f"next-state-names = {list(names.extra_next_state_names)}",
        f"guess-from-names = {str(names.enabled).lower()}",
        f"unused-suppressions (GG900) = {str(bool(getattr(args, 'unused_suppressions', False))).lower()}",
        f"fix = {str(bool(args.fix)).lower()}",
        f"unsafe-fixes = {str(bool(args.unsafe_fixes)).lower()}",
        f"cache = {str(not args.no_cache).lower()}",
    ]
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------------------------------------
# after the check: --add-noqa, GG900


def after_check(run, files: list[tuple[str, Path]]) -> int | None:
    """--add-noqa (returns its exit code), or the GG900 findings added to the run's (with --fix,
    their fixes applied and the file checked again)."""
    args = run.args
    if getattr(args, "add_noqa", False):
        return add_noqa(run, files)
    wanted = getattr(args, "unused_suppressions", False)
    if not args.diff:
        resolvers: dict[Path, object] = {}  # JediResolver by project root
        for display, path in files:
            if not (wanted or _config_of(run, path).unused_suppressions):
                continue  # GG900 named neither on the command line nor in the file's configuration
            found = _unused_in_file(run, display, path, resolvers)
            if found is not None and args.fix and found[2] and _fix_unused(run, found[0], found[2]):
                run.findings[:] = [finding for finding in run.findings if finding[0] != display]
                document = _read(display, path)
                if document is not None:
                    run.check_document(document)  # the file as written: its findings, in its positions
                found = _unused_in_file(run, display, path, resolvers)
            if found is not None:
                run.findings.extend((display, found[1], diagnostic) for diagnostic in found[2])
    return None


def _fix_unused(run, document, unused: list[Diagnostic]) -> bool:
    """Write the GG900 fixes into the file; True when it changed."""
    try:
        outcome = _apply_once(document, unused)
    except NotebookError as error:
        run.fail(f"{document.display}: {error}")
        return False
    if not outcome.fixed:
        return False
    problem = write_atomic(document.path, document.raw, document.encode(outcome.target.text))
    if problem:
        run.fail(f"{document.display}: {problem}")
        return False
    run.fixed += outcome.fixed
    return True


def _apply_once(document, diagnostics: list[Diagnostic]):
    """The document (Python text or notebook JSON) with these diagnostics' (safe) fixes applied,
    through the one fix loop, which maps a notebook's positions into its cells."""
    from ..fix.loop import NotebookJson, PythonText, fix_until_stable  # only --add-noqa

    rounds = iter([diagnostics])
    target = NotebookJson(document.text) if document.is_notebook else PythonText(document.text)
    return fix_until_stable(target, lambda _source: next(rounds, []))


def _read(display: str, path: Path):
    try:
        return decode(display, path, path.read_bytes())
    except (OSError, UnicodeError):
        return None  # reported by the check already


def add_noqa(run, files: list[tuple[str, Path]]) -> int:
    """Add `# gradguard: ignore[CODE]` to each line with findings, as ruff's --add-noqa adds
    `# noqa: CODE`: gradguard's own comment, which ruff does not read as its own (RUF100)."""
    by_display: dict[str, list[Diagnostic]] = defaultdict(list)
    for display, _, diagnostic in run.findings:
        if diagnostic.code not in NOT_SUPPRESSIBLE:
            by_display[display].append(diagnostic)
    added = 0
    for display, path in files:
        found = by_display.get(display)
        document = _read(display, path) if found else None
        if document is None:
            continue
        python = Notebook(document.text).source if document.is_notebook else document.text
        edits = []
        for line, codes in sorted(_codes_by_line(found).items()):
            try:
                edits.append(suppression_edit(python, line, ", ".join(codes)))
            except ValueError:
                run.fail(f"{display}:{line}: cannot take a comment (it ends inside a string or with a backslash); not suppressed")
        if not edits:
            continue
        comments = [Diagnostic("noqa", found[0].severity, "a suppression comment", edit.span,
                               fixes=(_comment_fix(edit),)) for edit in edits]
        try:
            outcome = _apply_once(document, comments)
        except NotebookError as error:
            run.fail(f"{display}: {error}")
            continue
        problem = write_atomic(path, document.raw, document.encode(outcome.target.text))
        if problem:
            run.fail(f"{display}: {problem}")
            continue
        added += outcome.fixed
    if not run.args.quiet:
        print(f"Added {added} suppression comment{'' if added == 1 else 's'}.", file=sys.stderr)
    return 2 if run.failed else 0


def _comment_fix(edit: Edit) -> Fix:
    return Fix("Add a suppression comment", Safety.SAFE, (edit,), preferred=True)


def _codes_by_line(found: list[Diagnostic]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = defaultdict(list)
    for diagnostic in found:
        if diagnostic.code not in out[diagnostic.span.line]:
            out[diagnostic.span.line].append(diagnostic.code)
    return out


def _unused_in_file(run, display: str, path: Path, resolvers: dict):
    """(document, source as reported, GG900 diagnostics) of one file: its suppression comments
    against every enabled finding before suppression; None when it cannot be analysed."""
    config = _config_of(run, path)
    document = _read(display, path)
    if document is None:
        return None
    try:
        notebook = Notebook(document.text) if document.is_notebook else None
    except NotebookError:
        return None
    python = notebook.source if notebook is not None else document.text
    source = notebook if notebook is not None else document.text
    if not unused_suppressions(python, []):
        # No comment would be unused even if nothing were found (fewer findings only leave more
        # comments unused): none can be, whatever the analysis finds, so it is not run again.
        return document, source, []
    from .. import api
    from ..model.budget import Budget
    from .resolver import LazyResolver

    cross_module = {}
    if not run.args.no_jedi and config.jedi:
        root = import_root(path)
        resolver = resolvers.setdefault(root, LazyResolver(str(root)))
        cross_module = {"resolver": resolver, "budget": Budget(config.jedi_time_budget)}
    try:
        found = api.findings(python, display, conventions=config.names, **cross_module)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # E999 already says why
    enabled = [d for d in found if config.enabled(d.code, str(path))]
    return document, source, unused_suppressions(python, enabled)


def _config_of(run, path: Path) -> Config:
    """The file's own configuration (its nearest [tool.gradguard]) where the run has one per file."""
    config_for = getattr(run, "config_for", None)
    return config_for(path) if config_for is not None else run.config
