"""The marker tables of tests/conftest.py name tests that exist, and the markers are registered."""
from __future__ import annotations

import ast
from pathlib import Path

import conftest

TESTS = Path(__file__).parent


def _test_functions(module: str) -> set[str]:
    tree = ast.parse((TESTS / module).read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")}


def test_marker_tables_name_existing_tests():
    for entry in sorted(conftest.SLOW | conftest.LSP):
        module, _, name = entry.partition("::")
        assert (TESTS / module).is_file() and name in _test_functions(module), f"conftest.py names no test {entry}"
    for module in sorted(conftest.EDITOR | set(conftest.TENSORFLOW)):
        assert (TESTS / module).is_file(), f"conftest.py names no module {module}"


def test_markers_are_registered(pytestconfig):
    registered = {line.split(":", 1)[0].strip() for line in pytestconfig.getini("markers")}
    assert {"tf", "lsp", "editor", "slow"} <= registered


def test_markers_are_applied(request):
    assert not {"tf", "lsp", "editor", "slow"} & {m.name for m in request.node.iter_markers()}
    items = {item.nodeid: {m.name for m in item.iter_markers()} for item in request.session.items}
    assert all("tf" in marks for nodeid, marks in items.items() if "test_programs.py::test_program[" in nodeid)
    assert all("lsp" in marks for nodeid, marks in items.items() if nodeid.startswith("tests/lsp/"))
