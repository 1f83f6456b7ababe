"""The programs the invariants run on, each a (name, text) pair, by corpus:

* `programs`: tests/programs (the TensorFlow-verified corpus, Python files);
* `examples`: every rule's `bad` and `good` programs;
* `reports`: ../shared/reports (programs rebuilt from public threads), when it is there;
* `oracle`: the oracle generator's programs of one seed (`oracle:SEED:COUNT`);
* a folder: every `.py` file under it (a bench/realworld snapshot, for example).

TensorFlow-free: nothing is run, only read.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
REPORTS = ROOT.parent / "shared" / "reports"
NAMED = ("programs", "examples", "reports")


def programs() -> Iterator[tuple[str, str]]:
    for path in sorted((TESTS / "programs").glob("*.py")):
        yield f"programs/{path.name}", path.read_text(encoding="utf-8")


def examples() -> Iterator[tuple[str, str]]:
    from gradguard.rules.catalogue.registry import all_rules

    for rule in all_rules():
        yield f"examples/{rule.code}.bad", rule.bad
        yield f"examples/{rule.code}.good", rule.good


def reports() -> Iterator[tuple[str, str]]:
    for path in sorted(REPORTS.glob("wild*/*.py")):
        yield f"reports/{path.parent.name}/{path.name}", path.read_text(encoding="utf-8")


def oracle(seed: int, count: int) -> Iterator[tuple[str, str]]:
    from oracle.generator import generate

    for index in range(count):
        yield f"oracle/{seed}:{index}", generate(seed, index).source


def folder(path: Path) -> Iterator[tuple[str, str]]:
    for file in sorted(path.rglob("*.py")):
        try:
            text = file.read_text(encoding="utf-8")
            ast.parse(text)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        yield f"{path.name}/{file.relative_to(path).as_posix()}", text


def corpus(spec: str) -> Iterator[tuple[str, str]]:
    """The programs of one corpus: a name of `NAMED`, `oracle:SEED:COUNT`, or a folder."""
    if spec == "programs":
        return programs()
    if spec == "examples":
        return examples()
    if spec == "reports":
        return reports()
    if spec.startswith("oracle:"):
        _, seed, count = spec.split(":")
        return oracle(int(seed), int(count))
    path = Path(spec)
    if not path.is_dir():
        raise ValueError(f"not a corpus: {spec!r} (programs, examples, reports, oracle:SEED:COUNT, or a folder)")
    return folder(path)
