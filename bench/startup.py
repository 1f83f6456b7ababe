"""Start-up (issue 23): what a command that does little costs, against the interpreter's own start.

In one run, in rounds (each round runs every command once, in turn, so that a busier moment of the
machine falls on all of them alike), after one untimed run of each (disk cache, `.pyc` files):

* `python -c pass` of the measured venv: the floor of any Python program, its `site` included;
* `gradguard --version`: the console script, the package, the parser;
* `gradguard check --no-cache --exit-zero -q FILE` of a generated ~300-line training file
  without findings (bench/generate.py, `break_rate=0`): the imports a check needs, one analysis;
* the same check with the result cache (filled by the untimed run): the file is not analysed
  again, as in a second `gradguard check` of an unchanged project (a figure, no budget);
* `ruff --version` (from .venv-bench), for reference: a compiled tool's start.

Each figure is the median wall time of the whole process over the rounds. The budgets are ratios
measured in the same run: `gradguard --version` ≤ 2× `python -c pass`, the check ≤ 4×.
Figures to read, never assertions.

    python3 bench/startup.py [--venv VENV ...] [--rounds N] [--ruff PATH]   # alone; several venvs
                                              # (e.g. an export of an older commit) are measured together
    bash bench/run --only startup                                          # in the benchmark's report
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

VERSION_BUDGET = 2.0  # × `python -c pass`
CHECK_BUDGET = 4.0
PLAIN_LINES, PLAIN_SEED = 300, 300_301


@dataclass
class Command:
    label: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)  # over the run's environment
    walls: list[float] = field(default_factory=list)
    error: str | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.walls)


@dataclass
class Startup:
    """The commands of one venv (the interpreter, --version, check) and the reference ones."""

    venv: Path
    floor: Command
    version: Command
    check: Command
    cached: Command
    file_lines: int = 0
    findings: int | None = None  # what the check reports on the file (the budget's file has none)

    @property
    def commands(self) -> list[Command]:
        return [self.floor, self.version, self.check, self.cached]

    def ratio(self, command: Command) -> float | None:
        if command.error or self.floor.error or not command.walls or not self.floor.walls:
            return None
        return command.median / self.floor.median


def plain_file(out: Path) -> tuple[Path, int]:
    """A generated ~300-line training module whose pieces are all correct code (no findings)."""
    text, _ = generate.training_file(PLAIN_LINES, seed=PLAIN_SEED, break_rate=0.0)
    path = out / f"startup_{PLAIN_LINES}.py"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path, text.count("\n")


def _bin(venv: Path, name: str) -> str:
    return str(venv / ("Scripts" if os.name == "nt" else "bin") / name)


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def _findings(venv: Path, path: Path, cwd: Path, env: dict[str, str]) -> int | None:
    done = subprocess.run([_bin(venv, "gradguard"), "check", "--no-cache", "--exit-zero", "--format", "json", str(path)],
                          cwd=cwd, env=env, capture_output=True, text=True)
    try:
        return len(json.loads(done.stdout))
    except ValueError:
        return None


def measure(venvs: list[Path], path: Path, lines: int, cwd: Path, env: dict[str, str], rounds: int,
            ruff: str | None = None) -> tuple[list[Startup], Command | None]:
    """Every venv's three commands and `ruff --version`, interleaved over `rounds` rounds."""
    results = [Startup(venv, Command("python -c pass", [_bin(venv, "python"), "-c", "pass"]),
                       Command("gradguard --version", [_bin(venv, "gradguard"), "--version"]),
                       Command(f"gradguard check --no-cache FILE, {lines:,} lines",
                               [_bin(venv, "gradguard"), "check", "--no-cache", "--exit-zero", "-q", str(path)]),
                       Command("gradguard check FILE, from the result cache",
                               [_bin(venv, "gradguard"), "check", "--exit-zero", "-q", str(path)],
                               # one cache per venv: each gradguard version replaces the other's file
                               {"GRADGUARD_CACHE_DIR": str(cwd / f"cache-{index}")}),
                       file_lines=lines) for index, venv in enumerate(venvs)]
    reference = Command("ruff --version", [ruff, "--version"]) if ruff and Path(ruff).exists() else None
    commands = [command for result in results for command in result.commands] + ([reference] if reference else [])
    for command in commands:  # untimed: the disk cache, the .pyc files; and whether it runs at all
        _, status = _run(command.argv, cwd, {**env, **command.env})
        if status != 0:
            command.error = f"exit status {status}"
    for result in results:
        result.findings = _findings(result.venv, path, cwd, env)
    for _ in range(rounds):
        for command in commands:
            if command.error is None:
                command.walls.append(_run(command.argv, cwd, {**env, **command.env})[0])
    return results, reference


def ms(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value >= 0.01 else f"{value * 1000:.1f} ms"


def rows(results: list[Startup], reference: Command | None, names: list[str] | None = None) -> list[str]:
    """Markdown rows: | command | median (min) | × python -c pass | budget |"""
    out = ["| command | median (min) | × `python -c pass` | budget |", "| --- | --- | --- | --- |"]
    for index, result in enumerate(results):
        prefix = f"{names[index]}: " if names else ""
        for command, budget in ((result.floor, None), (result.version, VERSION_BUDGET), (result.check, CHECK_BUDGET),
                                (result.cached, None)):
            if command.error or not command.walls:
                out.append(f"| {prefix}`{command.label}` | failed ({command.error or 'no runs'}) | — | — |")
                continue
            factor = result.ratio(command)
            verdict = "—" if budget is None else f"≤ {budget:.0f}×: {'met' if factor <= budget else '**missed**'}"
            label = command.label if command is not result.check else \
                f"{command.label} ({'without findings' if result.findings == 0 else f'{result.findings} findings'})"
            out.append(f"| {prefix}`{label}` | {ms(command.median)} ({ms(min(command.walls))}) | "
                       f"{factor:.2f}× | {verdict} |")
    if reference is not None and reference.walls:
        floor = results[0].floor
        factor = f"{reference.median / floor.median:.2f}×" if floor.walls else "—"
        out.append(f"| `{reference.label}` (.venv-bench) | {ms(reference.median)} ({ms(min(reference.walls))}) | "
                   f"{factor} | — |")
    return out


def budget_lines(result: Startup | None, verdict) -> None:
    """The two budgets beside the others: `verdict(name, ok, detail)`."""
    for command, budget, what in ((result and result.version, VERSION_BUDGET, "`gradguard --version`"),
                                  (result and result.check, CHECK_BUDGET,
                                   f"`gradguard check` of a {PLAIN_LINES}-line file without findings")):
        name = f"{what} ≤ {budget:.0f}× `python -c pass` (issue 23)"
        factor = result.ratio(command) if result is not None else None
        if factor is None:
            verdict(name, None, "not run" if result is None else (command.error or result.floor.error or "no figure"))
            continue
        verdict(name, factor <= budget,
                f"{factor:.2f}× ({ms(command.median)} vs {ms(result.floor.median)}, medians of {len(command.walls)} "
                f"interleaved runs)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/startup.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, action="append",
                        help="a venv with gradguard installed (repeatable; default: this checkout's .venv)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--ruff", default=_bin(HERE.parent / ".venv-bench", "ruff"),
                        help="the ruff to time for reference (default: .venv-bench's)")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gradguard-bench" / "startup")
    args = parser.parse_args(argv)
    venvs = [venv.resolve() for venv in args.venv or [HERE.parent / ".venv"]]
    args.out.mkdir(parents=True, exist_ok=True)
    env = os.environ.copy()
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as bench/run: an editable install would recompile at every start
    path, lines = plain_file(args.out)
    results, reference = measure(venvs, path, lines, args.out, env, args.rounds, args.ruff)
    names = [str(venv) for venv in venvs] if len(venvs) > 1 else None
    print("\n".join(rows(results, reference, names)))
    print()
    for result in results:
        budget_lines(result, lambda name, ok, detail, venv=result.venv: print(
            f"- {venv}: {name}: **{ {True: 'met', False: 'MISSED', None: 'not measured'}[ok] }** — {detail}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
