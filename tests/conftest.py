"""Shared fixtures. TensorFlow is imported once per session, through the harness, on first use."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))


@pytest.fixture(scope="session")
def tf_harness():
    import tf_harness

    return tf_harness


@pytest.fixture(autouse=True)
def _own_result_cache(monkeypatch, tmp_path_factory):
    """Each test gets its own `gradguard check` result cache: no test sees another's results, and
    checks of the repository's own fixtures leave no cache folder in the work tree."""
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path_factory.mktemp("gradguard-cache")))
