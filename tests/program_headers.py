"""The headers of the corpus programs (tests/programs/README.md), and notebooks as one source.

Not a test module: tests import it, directly or through tf_harness, which re-exports
`notebook_source` and `parse_header`. It never imports TensorFlow, so tests that only read
headers stay fast.

A finding in a header is written `CODE@LINE` (1-based line of the file) or, in a notebook,
`CODE@cellN:LINE` (N: the 1-based position of the cell in the notebook's `cells` list, markdown
cells included, as `gradguard check` prints it; LINE: the 1-based line in that cell). A bare
`CODE` (no position) is accepted for headers that pin codes only (tests/crossmodule).
"""
from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

__all__ = [
    "CodeCell",
    "entry",
    "entry_key",
    "first_code_cell",
    "notebook_cells",
    "notebook_position",
    "notebook_source",
    "parse_header",
    "sorted_entries",
]


# --------------------------------------------------------------------------------------------
# Notebooks


class CodeCell(NamedTuple):
    number: int      # 1-based position in the notebook's `cells` list (markdown cells counted)
    first_line: int  # 1-based line of the joined source where the cell's first line is
    lines: list[str]  # the cell's lines as they are in the joined source (magics blanked)


def _cell_text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def notebook_cells(ipynb_text: str) -> list[CodeCell]:
    """The code cells that contribute lines to `notebook_source`, in order."""
    nb = json.loads(ipynb_text)
    cells: list[CodeCell] = []
    next_line = 1
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell)
        if not text:
            continue
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in lines]
        cells.append(CodeCell(index + 1, next_line, lines))
        next_line += len(lines)
    return cells


def notebook_source(ipynb_text: str) -> str:
    """The code cells of an nbformat 4 notebook joined in order into one Python source.

    Each cell contributes exactly its own lines (a final newline is added when missing), so line
    N of cell k is line (lines of cells before k) + N. IPython magics and shell escapes (lines
    whose first non-blank character is `%` or `!`) become empty lines, keeping numbering stable.
    """
    out = [line for cell in notebook_cells(ipynb_text) for line in cell.lines]
    return "\n".join(out) + "\n" if out else ""


def notebook_position(ipynb_text: str, line: int) -> tuple[int, int]:
    """(cell number, 1-based line in that cell) of a 1-based line of `notebook_source`."""
    for cell in notebook_cells(ipynb_text):
        if cell.first_line <= line < cell.first_line + len(cell.lines):
            return cell.number, line - cell.first_line + 1
    raise ValueError(f"line {line} is in no code cell of the notebook")


def first_code_cell(ipynb_text: str) -> str:
    nb = json.loads(ipynb_text)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            return _cell_text(cell)
    return ""


# --------------------------------------------------------------------------------------------
# Findings as header entries


_ENTRY = re.compile(r"(?P<code>[A-Z]+[0-9]+)(?:@(?:cell(?P<cell>[1-9][0-9]*):)?(?P<line>[1-9][0-9]*))?")


def entry(code: str, line: int | None = None, cell: int | None = None) -> str:
    """`GG101@31`, `GG101@cell4:3`, or `GG101` without a position."""
    if line is None:
        return code
    return f"{code}@cell{cell}:{line}" if cell is not None else f"{code}@{line}"


def entry_key(text: str) -> tuple[int, int, str]:
    """Sort key: by cell, then line, then code (entries without a position first)."""
    match = _ENTRY.fullmatch(text)
    if not match:
        raise ValueError(f"not a header entry: {text!r} (expected CODE@LINE or CODE@cellN:LINE)")
    return int(match["cell"] or 0), int(match["line"] or 0), match["code"]


def sorted_entries(entries) -> list[str]:
    """The entries as a sorted list: two multisets of findings are equal iff these are."""
    return sorted(entries, key=entry_key)


# --------------------------------------------------------------------------------------------
# Headers


_HEADER_KEYS = ("expect", "tensorflow", "fixed", "shape", "source", "family", "gap", "heldout")


def parse_header(source: str) -> dict[str, Any]:
    """Read the `# expect:` / `# tensorflow:` / `# fixed:` / `# shape:` / `# source:` /
    `# family:` / `# gap:` comment lines.

    `source` may be notebook JSON (then the first code cell is read). Returns
    {"expect": sorted distinct codes, [] for "none"; "findings": every `# expect:` entry, in
    order of position (a multiset: an entry is listed once per finding); "tensorflow": str,
    "fixed": str | None, "shape": str, "source": str (the public thread a mined program
    rebuilds), "family": str (the recall family of issue 14 it belongs to), "gap": str | None
    (why gradguard does not report it as `expect:` says yet), "heldout": str (the held-out sample
    it was mined for, "" if none)}. Only the leading comment block (blank lines allowed) is
    read. A malformed entry raises ValueError.
    """
    text = source
    if source.lstrip().startswith("{"):
        try:
            text = first_code_cell(source)
        except ValueError:
            text = source
    found: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        body = stripped.lstrip("#").strip()
        key, sep, value = body.partition(":")
        key = key.strip().lower()
        if sep and key in _HEADER_KEYS and key not in found:
            found[key] = value.strip()
    expect_text = found.get("expect", "none")
    entries = [] if expect_text.lower() in ("", "none") else sorted_entries(expect_text.split())
    return {
        "expect": sorted({entry_key(e)[2] for e in entries}),
        "findings": entries,
        "tensorflow": found.get("tensorflow", ""),
        "fixed": found.get("fixed"),
        "shape": found.get("shape", ""),
        "source": found.get("source", ""),
        "family": found.get("family", ""),
        "gap": found.get("gap"),
        "heldout": found.get("heldout", ""),
    }
