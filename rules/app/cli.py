"""The `gradguard` command: `check` files for lost gradients (and fix them), explain a `rule`,
or start the language `server`.

Exit codes: 0 clean (or --exit-zero), 1 findings remain (or --diff has changes), 2 usage,
configuration, file-writing or internal error.
"""
from __future__ import annotations

import argparse
import difflib
import importlib
import io
import json
import os
import sys

from .. import __version__, api
from ..catalogue import registry
from ..catalogue.docs import has_fix, render_rule_doc
from ..project.config import ConfigError
from .cache import CACHE_DIR
from .check import ISSUES_URL, run_check
from .check import print_error as _error
from .output import FORMATS



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


if __name__ == "__main__":
    sys.exit(main())
