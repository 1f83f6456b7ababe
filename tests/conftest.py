"""Shared fixtures and markers. TensorFlow is imported once per session, through the harness, on first use.

Markers (registered in pyproject.toml) are applied here, so no test module has to remember them:

    tf      runs TensorFlow: uses the `tf_harness` fixture, or is in TENSORFLOW below
    lsp     starts the language server: everything under tests/lsp/, and LSP below
    editor  drives a real editor (Neovim, Vim with ALE): EDITOR below
    slow    took more than about 5 s in a measured full run: SLOW below

README.md ("Running the tests") gives the selections and their measured times; tests/test_markers.py
checks that the tables below name tests that exist.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))

# Tests that run TensorFlow without the tf_harness fixture: a whole module (path relative to
# tests/), or the tests of a module that use one of its fixtures.
TENSORFLOW = {
    "test_tf_harness.py": None,                        # every test runs the harness (tf_harness)
    "test_no_gradient_data.py": {"generated", "tf"},  # runs TensorFlow's gradient registry
    "test_numpy_table.py": {"tf"},                     # evaluates the swapped calls with TensorFlow
}
EDITOR = {"lsp/test_neovim.py", "lsp/test_vim_ale.py"}
# Tests outside tests/lsp/ that start the language server too.
LSP = {"test_server_cli.py::test_tcp_server_answers_initialize_and_writes_its_log_file"}
# Every test over about 5 s in `pytest --durations=0` of the whole suite on the 2-core machine
# (call phase, two runs); the next slowest took under 4 s in both.
SLOW = {
    "lsp/test_lsp_abuse.py::test_a_storm_of_edits_a_thousand_a_second_for_ten_seconds",  # 11.5-11.7 s
    "fuzz/test_fuzz.py::test_a_50000_line_file_is_linted_strictly_and_tolerantly",      # 8.9-10.1 s
    "test_invariants.py::test_opacity_on_a_fixed_sample_of_every_program",               # 53 s
}


def _markers(item: pytest.Item) -> list[str]:
    try:
        path = Path(item.path).resolve().relative_to(TESTS.resolve()).as_posix()
    except ValueError:  # a test outside tests/ (given explicitly on the command line)
        return []
    fixtures = set(getattr(item, "fixturenames", ()))
    name = item.name.split("[", 1)[0]
    marks = []
    module_fixtures = TENSORFLOW.get(path, ())
    if "tf_harness" in fixtures or (path in TENSORFLOW and (module_fixtures is None or fixtures & module_fixtures)):
        marks.append("tf")
    if path.startswith("lsp/") or f"{path}::{name}" in LSP:
        marks.append("lsp")
    if path in EDITOR:
        marks.append("editor")
    if f"{path}::{name}" in SLOW:
        marks.append("slow")
    return marks


def pytest_configure(config):
    # `pytest --collect-only` runs no test, so syrupy would call every snapshot unused and exit 1.
    if config.option.collectonly and hasattr(config.option, "disable_unused_snapshots"):
        config.option.disable_unused_snapshots = True


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        for marker in _markers(item):
            item.add_marker(marker)


@pytest.fixture(scope="session")
def tf_harness():
    import tf_harness

    return tf_harness


@pytest.fixture(autouse=True)
def _own_result_cache(monkeypatch, tmp_path_factory):
    """Each test gets its own `gradguard check` result cache: no test sees another's results, and
    checks of the repository's own fixtures leave no cache folder in the work tree."""
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path_factory.mktemp("gradguard-cache")))
