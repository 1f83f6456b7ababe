"""The structure a newcomer reads: layers that import one way, no cycles, small modules, one folder
for the rule catalogue, and one owner for every kind of lost gradient.

The layers themselves are import-linter contracts in pyproject.toml ([tool.importlinter]); this
test runs them, so `lint-imports` and the test suite agree.
"""
from __future__ import annotations

from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

from gradguard.rules.catalogue.registry import all_rules
from gradguard.rules.catalogue.rule import BreakRule
from gradguard.rules.model.status import Verdict

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("gradguard.rules", "gradguard.server")
MAX_MODULE_LINES = 600


def test_import_contracts_are_kept():
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_no_import_cycle_counting_imports_inside_functions():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    modules = set(graph.modules)  # packages too: an __init__ is a module like any other
    assert len(modules) > 50
    assert _cycles(modules, lambda m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules}) == []


def _cycles(nodes, edges) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges(node):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in edges(node):
                found.append(sorted(component))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges, lambda n: edges[n]) == [["a", "b", "c"]]


@pytest.mark.parametrize("folder", ["rules", "server"])
def test_no_module_is_over_600_lines(folder):
    long = {str(path.relative_to(ROOT)): count for path in sorted((ROOT / folder).rglob("*.py"))
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def test_every_rule_lives_in_the_catalogue_folder_of_its_family():
    assert not list((ROOT / "rules").glob("gg*.py"))
    for rule in all_rules():
        module = rule.__module__
        family = f"gg{rule.code[2]}"
        assert module == f"gradguard.rules.catalogue.{family}.{module.rsplit('.', 1)[1]}", rule.code
        assert module.rsplit(".", 1)[1].startswith(rule.code.lower() + "_"), rule.code


def test_each_kind_of_lost_gradient_has_exactly_one_owner():
    """Two rules never report the same origin of the same sink: `model.status.verdict` decides
    which kind of loss it is, and one rule (the break rules together) owns each kind."""
    owners: dict[Verdict, set[str]] = {}
    for rule in all_rules():
        owner = "break rules" if issubclass(rule, BreakRule) else rule.code
        for verdict in rule.owns:
            owners.setdefault(verdict, set()).add(owner)
    assert {verdict: len(names) for verdict, names in owners.items()} == {
        verdict: 1 for verdict in Verdict if verdict not in (Verdict.LIVE, Verdict.SILENT)}
