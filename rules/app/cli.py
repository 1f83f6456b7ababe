"""The `gradguard` command: `check` files for lost gradients (and fix them), explain a `rule`,
`explain` the gradient at one place of a file, or start the language `server`.

Exit codes: 0 clean (or --exit-zero), 1 findings remain (or --diff has changes), 2 usage,
configuration, file-writing or internal error.
"""
from __future__ import annotations

import argparse
import io
import os
import sys

from ..project.errors import ConfigError
from .arguments import ISSUES_URL
from .arguments import parser as _parser
from .arguments import print_error as _error

# Each command imports what it runs, when it runs (tests/test_startup.py): `--version`, `help` and
# `rule` no analyzer, `check` no libcst or jedi unless a fix is written or a name is looked up in
# another module, only `server` pygls.


class UsageError(Exception):
    """A mistake in the command line; reported in one line, exit 2."""


def main(argv: list[str] | None = None) -> int:
    program = argv is None  # the `gradguard` program itself, not a caller inside another process
    code = _main(list(sys.argv[1:] if argv is None else argv), program)
    if program and sys.argv[1:2] == ["check"]:
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """End the `check` program once its output is flushed, without tearing the interpreter down:
    freeing every module and object costs ~7 ms after a folder and does nothing a check needs (the
    result cache is saved, the workers have been joined, logging has no file to close)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left after the last write: as in _main
        _silence_stdout()
        code = 1
    except (OSError, ValueError):
        pass
    os._exit(code)


def _main(argv: list[str], program: bool) -> int:
    try:
        if argv[:1] == ["server"]:
            return _run_server(argv[1:])  # its options belong to the server, not to argparse
        return _dispatch(argv, program)
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


def _dispatch(argv: list[str], program: bool = False) -> int:
    parser = _parser()
    commands = parser.commands
    if not argv:  # like ruff: a command is required
        parser.print_usage(sys.stderr)
        _error("give a command: check, explain, rule or server (`gradguard help` says more)")
        return 2
    if argv[0] == "help":  # `gradguard help [COMMAND]`, as ruff and git have it
        topic = argv[1:2]
        (commands[topic[0]] if topic and topic[0] in commands else parser).print_help()
        return 0 if not topic or topic[0] in commands else 2
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # the usage of the command that was given, not the top-level one
        (commands.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command == "check":
        from . import output

        try:
            args = _check_arguments(args, commands["check"])
            args.tune_memory = program  # the process is ours: its malloc and garbage collector may be tuned
            return run_check(args)
        finally:
            output.set_color(False)  # decided per run: a caller of main() in-process starts plain again
    if args.command == "rule":
        return run_rule(args)
    if args.command == "explain":
        from . import explain

        if program:
            _tune_garbage_collector()
        return explain.run_explain(args, _error)
    parser.print_help()
    return 0


def run_check(args: argparse.Namespace) -> int:
    from .check import run_check as check_files

    return check_files(args)


def _tune_garbage_collector() -> None:
    """For the program's commands that analyse: once the analyzer is imported, so that
    `api.tune_garbage_collector` freezes its modules with the rest of what exists."""
    from .. import api

    api.tune_garbage_collector()


# Codes the CLI handles itself in --select/--extend-select/--ignore: syntax and file errors are
# always reported (ruff's E999), GG900 turns the unused-suppression check on.
_ALWAYS_REPORTED = ("E999", "E902")


def _check_arguments(args: argparse.Namespace, check: argparse.ArgumentParser) -> argparse.Namespace:
    """The parsed `check` options as run_check takes them: repeated options added up, stdin read
    for a lone --stdin-filename, the CLI's own codes taken out, the colour decided."""
    if not args.paths:
        args.paths = ["-"] if args.stdin_filename else ["."]
    if args.add_noqa and (args.fix or args.diff):
        check.error("--add-noqa cannot be combined with --fix or --diff")
    select = _codes(args.select)
    extend = _codes(args.extend_select)
    ignore = _codes(args.ignore)
    unused = (select is not None and _names_gg900(select)) or (extend is not None and _names_gg900(extend))
    args.unused_suppressions = bool(unused) and not (ignore and _names_gg900(ignore))
    args.select = _join(_without_cli_codes(select, "select"))
    args.extend_select_codes = tuple(_without_cli_codes(extend, "extend-select") or ())
    _validate(args.extend_select_codes, "--extend-select")
    args.ignore = _join(_without_cli_codes(ignore, "ignore"))
    args.exclude = _codes(args.exclude, upper=False)
    args.extend_exclude = _codes(args.extend_exclude, upper=False)
    from . import output

    output.set_color(_color(args.color))
    return args


def _codes(values: list[str] | None, upper: bool = True) -> list[str] | None:
    if values is None:
        return None
    parts = [part.strip() for value in values for part in value.split(",") if part.strip()]
    return [part.upper() for part in parts] if upper else parts


def _names_gg900(codes: list[str]) -> bool:
    return any(len(code) >= 3 and "GG900".startswith(code) for code in codes)


def _without_cli_codes(codes: list[str] | None, option: str) -> list[str] | None:
    if codes is None:
        return None
    for code in codes:
        if code in _ALWAYS_REPORTED:
            _error(f"warning: --{option} {code}: syntax and file errors are always reported (like ruff's E999); "
                   f"{code} in --{option} has no effect")
    return [code for code in codes if code not in _ALWAYS_REPORTED and not _names_gg900([code])]


def _join(codes: list[str] | None) -> str | None:
    return None if codes is None else ",".join(codes)


def _validate(codes: tuple[str, ...], option: str) -> None:
    from ..project.config import code_problem

    for code in codes:
        problem = code_problem(code)
        if problem:
            raise ConfigError(f"{option}: {problem}")


def _color(choice: str) -> bool:
    """--color, then NO_COLOR (https://no-color.org) and FORCE_COLOR, then: is stdout a terminal?"""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# gradguard server


def _run_server(args: list[str]) -> int:
    import importlib  # by name: the CLI and the server are independent front ends (pyproject.toml)

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
    import json

    from ..catalogue import registry
    from ..catalogue.docs import render_rule_doc
    from .output import CLI_CODES

    rules = registry.all_rules()
    if args.all:
        _print_rule_list(rules, args.format)
        return 0
    if not args.code:
        raise UsageError("rule: give a rule code (e.g. GG101) or --all")
    builtin = CLI_CODES.get(args.code.upper()) or next(
        (c for c in CLI_CODES.values() if c.name == args.code.lower()), None)
    rule = registry.rule_by_code(args.code) or next((r for r in rules if r.name == args.code.lower()), None)
    if rule is None and builtin is None:
        choices = [r.code for r in rules] + [r.name for r in rules] + list(CLI_CODES)
        import difflib  # only for a mistyped rule

        close = difflib.get_close_matches(args.code.upper(), choices, n=3, cutoff=0.5)
        close += difflib.get_close_matches(args.code.lower(), choices, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else "; see `gradguard rule --all`"
        raise UsageError(f"unknown rule {args.code!r}{hint}")
    if args.format == "json":
        row = _rule_row(rule) if rule else _cli_code_row(builtin)
        row["explanation"] = render_rule_doc(rule) if rule else builtin.doc()
        print(json.dumps(row, indent=2, ensure_ascii=False))
        return 0
    sys.stdout.write(render_rule_doc(rule) if rule else builtin.doc())
    return 0


def _rule_row(r) -> dict:
    return {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity.value,
            "fix_safety": r.fix_safety, "url": r.doc_url()}


def _print_rule_list(rules, fmt: str) -> None:
    """Every rule, then the CLI's own codes (E999, E902, GG900), as `ruff rule --all` lists all."""
    import json

    from ..catalogue.docs import has_fix
    from .output import CLI_CODES

    if fmt == "json":
        rows = [_rule_row(r) for r in rules] + [_cli_code_row(c) for c in CLI_CODES.values()]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    listed = [(r.code, r.name, r.severity.value, has_fix(r), r.summary) for r in rules]
    listed += [(c.code, c.name, c.severity.value, c.code == "GG900", c.summary) for c in CLI_CODES.values()]
    width = max((len(name) for _, name, *_ in listed), default=0)
    for code, name, severity, fix, summary in listed:
        print(f"{code:<5}  {name:<{width}}  {severity:<7}  {'fix' if fix else '   '}  {summary}")


def _cli_code_row(item) -> dict:
    return {"code": item.code, "name": item.name, "summary": item.summary, "severity": item.severity.value,
            "fix_safety": "", "url": item.doc_url()}


if __name__ == "__main__":
    sys.exit(main())
