"""The `gradguard` command line's parsers, and the few names their help shows (the output formats,
the result cache's folder). argparse only: `gradguard --version`, `help`, and a usage error build
these and import no analyzer (tests/test_startup.py); each command imports what it runs.
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__

FORMATS = ("text", "json", "sarif", "github")  # rendered by app/output.py
CACHE_DIR = ".gradguard_cache"  # app/cache.py: one per project root
ISSUES_URL = "https://github.com/gradguard/gradguard/issues"


def print_error(message: str) -> None:
    print(f"gradguard: {message}", file=sys.stderr)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own, told the terminal's width: left to find it, argparse imports `shutil`, and
    with it `bz2`, `lzma` and `zlib`, at every start, for a width only help and errors print."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, width if width is not None else _columns() - 2)


def _columns() -> int:
    """What `shutil.get_terminal_size().columns` says: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is formatted by `HelpFormatter` (its subcommands' too: they
    are made of the parent's class)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def parser() -> argparse.ArgumentParser:
    """The `gradguard` parser; `.commands` holds each command's own parser (for its usage)."""
    top = Parser(
        prog="gradguard", description="Find TensorFlow code whose loss gets no gradient, and fix it."
    )
    top.add_argument("-V", "--version", action="version", version=f"gradguard {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser("check", help="check files and folders (and --fix them)")
    add_check(check)
    rule = commands.add_parser("rule", help="explain a rule, or list every rule with --all")
    rule.add_argument("code", nargs="?", help="a rule code (GG101, E999) or name (numpy-method-on-tensor)")
    rule.add_argument("--all", action="store_true", help="list every rule")
    rule.add_argument("--format", "--output-format", dest="format", choices=("text", "json"), default="text")
    explainer = commands.add_parser("explain", help="show how the gradient reaches (or misses) the loss at FILE:LINE[:COL]")
    add_explain(explainer)
    server = commands.add_parser("server", help="start the language server (options are passed on to it)")
    commands.add_parser("help", help="print this help, or a command's: gradguard help check")
    top.commands = {"check": check, "rule": rule, "explain": explainer, "server": server}
    return top


def add_check(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files or folders (*.py, *.ipynb); - reads stdin (default: ., or stdin with --stdin-filename)")
    check.add_argument("--format", "--output-format", dest="format", choices=FORMATS, default="text")
    check.add_argument("--select", metavar="CODES", action="append",
                       help="comma-separated code prefixes to check (replaces the config; repeatable)")
    check.add_argument("--extend-select", metavar="CODES", action="append",
                       help="comma-separated code prefixes to check as well as the selected ones (repeatable; GG900: unused suppressions)")
    check.add_argument("--ignore", metavar="CODES", action="append",
                       help="comma-separated code prefixes to skip (added to the config; repeatable)")
    check.add_argument("--exclude", metavar="GLOBS", action="append",
                       help="comma-separated gitignore-style globs to skip (replaces the config's exclude; repeatable)")
    check.add_argument("--extend-exclude", metavar="GLOBS", action="append",
                       help="comma-separated globs to skip as well (repeatable)")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix, also apply unsafe fixes; without, count them as fixable")
    check.add_argument("--diff", action="store_true", help="print the diff --fix would apply; write nothing")
    check.add_argument("--add-noqa", action="store_true",
                       help="add a `# gradguard: ignore[CODE]` comment to every line with findings")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("--show-settings", action="store_true", help="print the settings used for the first file, and exit")
    check.add_argument("--show-files", action="store_true", help="print the files that would be checked, and exit")
    check.add_argument("--config", metavar="PATH", help="use this pyproject.toml / gradguard.toml")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="the name of the file read from stdin (alone, it makes the check read stdin)")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the text output (auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)")
    check.add_argument("--no-cache", action="store_true",
                       help=f"analyse every file; do not read or write {CACHE_DIR}/ (results of unchanged files)")
    check.add_argument("--no-jedi", action="store_true",
                       help="analyse each file alone: do not follow calls into other modules with jedi")
    check.add_argument("-j", "--jobs", type=positive_int, metavar="N",
                       help="check files in N processes (default: one per core, fewer for small inputs)")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    check.add_argument("-V", "--version", action="version", version=f"gradguard {__version__}")


def add_explain(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="FILE:LINE[:COL]",
                        help="a place in a file (1-based line and column); in a notebook FILE.ipynb:cellN:LINE[:COL]")
    parser.add_argument("--format", "--output-format", dest="format", choices=("text", "json"), default="text")
    parser.add_argument("--config", metavar="PATH", help="use this pyproject.toml / gradguard.toml")
    parser.add_argument("--no-jedi", action="store_true",
                        help="analyse the file alone: do not follow calls into other modules with jedi (as check)")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes (1 or more), got {text!r}")
    return value
