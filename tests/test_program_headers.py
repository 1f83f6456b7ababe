"""The corpus headers' `CODE@line` entries and the notebook line mapping (no TensorFlow)."""
from __future__ import annotations

import json

import pytest

from program_headers import entry, notebook_position, notebook_source, parse_header, sorted_entries


def _notebook(*cells: tuple[str, str]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True),
         **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, text in cells]})


def test_entries_are_a_multiset_in_order_of_position():
    header = parse_header("# expect: GG202@44 GG101@40 GG101@31 GG101@40\n# tensorflow: none\nx = 1\n")
    assert header["findings"] == ["GG101@31", "GG101@40", "GG101@40", "GG202@44"]
    assert header["expect"] == ["GG101", "GG202"]
    assert parse_header("# expect: none\n")["findings"] == [] and parse_header("x = 1\n")["findings"] == []


def test_notebook_entries_sort_by_cell_then_line():
    assert sorted_entries(["GG101@cell10:1", "GG301@cell3:7", "GG101@cell3:2"]) == \
        ["GG101@cell3:2", "GG301@cell3:7", "GG101@cell10:1"]
    assert entry("GG101", 3, 4) == "GG101@cell4:3" and entry("GG101", 31) == "GG101@31" and entry("GG1") == "GG1"


@pytest.mark.parametrize("bad", ["GG101@", "GG101@0", "GG101@x", "gg101@3", "GG101@cell:3", "GG101@3:4"])
def test_a_malformed_entry_is_an_error(bad):
    with pytest.raises(ValueError, match="not a header entry"):
        parse_header(f"# expect: {bad}\n")


def test_notebook_lines_map_to_cells_counted_like_gradguard_check():
    nb = _notebook(("markdown", "# title\n"), ("code", "# expect: GG101@cell4:2\n%matplotlib inline\nx = 1\n"),
                   ("code", ""), ("code", "!pip install x\ny = 2"), ("markdown", "text"), ("code", "z = 3\n"))
    assert notebook_source(nb) == "# expect: GG101@cell4:2\n\nx = 1\n\ny = 2\nz = 3\n"
    assert [notebook_position(nb, line) for line in range(1, 7)] == [(2, 1), (2, 2), (2, 3), (4, 1), (4, 2), (6, 1)]
    assert parse_header(nb)["findings"] == ["GG101@cell4:2"]
    with pytest.raises(ValueError):
        notebook_position(nb, 7)


def test_the_held_out_sample_of_a_program_is_read_from_its_header():
    header = parse_header("# expect: GG101@4\n# tensorflow: none\n# source: https://example.org/t/1\n"
                          "# heldout: 2\nx = 1\n")
    assert header["heldout"] == "2" and header["source"] == "https://example.org/t/1"
    assert parse_header("# expect: none\nx = 1\n")["heldout"] == ""
