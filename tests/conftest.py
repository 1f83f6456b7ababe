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
