"""The corpus in tests/programs: gradguard's findings and TensorFlow's verdict must agree."""
from __future__ import annotations

from pathlib import Path

import pytest

from gradguard.rules import analyze
from program_headers import entry, first_code_cell, notebook_position, notebook_source, parse_header, sorted_entries
from tensorflow_truth import check_fixed

PROGRAMS = sorted(p for p in (Path(__file__).parent / "programs").iterdir() if p.suffix in (".py", ".ipynb"))


def _source(path: Path, harness) -> str:
    text = path.read_text(encoding="utf-8")
    return harness.notebook_source(text) if path.suffix == ".ipynb" else text


def found_entries(path: Path, source: str) -> list[str]:
    """Every finding gradguard reports on the program, as header entries (`GG101@31`, or
    `GG101@cell4:3` in a notebook, whose `source` is its cells joined), sorted by position."""
    findings = analyze(source)
    if path.suffix != ".ipynb":
        return sorted_entries(entry(d.code, d.span.line) for d in findings)
    text = path.read_text(encoding="utf-8")
    return sorted_entries(entry(d.code, *reversed(notebook_position(text, d.span.line))) for d in findings)


def test_corpus_size():
    bad = [p for p in PROGRAMS if p.name.startswith("bad_")]
    ok = [p for p in PROGRAMS if p.name.startswith("ok_")]
    assert len(bad) + len(ok) == len(PROGRAMS)
    assert len(PROGRAMS) >= 60 and len(ok) >= 20


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_header_pins_every_finding_with_its_position(path):
    """`# expect:` lists one `CODE@line` (`CODE@cellN:line` in a notebook) per finding, in order."""
    text = path.read_text(encoding="utf-8")
    header = parse_header(text)
    expect_line = next(line for line in (text if path.suffix == ".py" else first_code_cell(text)).splitlines()
                       if line.startswith("# expect:"))
    written = expect_line.partition(":")[2].split()
    assert written == (header["findings"] or ["none"]), f"{path.name}: list the entries in order of position"
    cell_form = path.suffix == ".ipynb"
    for item in header["findings"]:
        assert "@" in item and ("@cell" in item) == cell_form, \
            f"{path.name}: {item!r} needs a position ({'CODE@cellN:LINE' if cell_form else 'CODE@LINE'})"
    assert bool(header["findings"]) == path.name.startswith("bad_"), path.name


def _gap(path: Path) -> str | None:
    """Why gradguard does not report this program as its header says yet (`# gap:`), or None."""
    return parse_header(path.read_text(encoding="utf-8"))["gap"]


# Programs whose break gradguard does not find yet say so in a `# gap:` header line; their
# findings test is a strict xfail, so closing a gap makes it fail loudly, and TensorFlow's
# label is still checked on its own (test_gap_program_tensorflow).
GAPS = [p for p in PROGRAMS if _gap(p)]


def _marked(path: Path):
    reason = _gap(path)
    return pytest.param(path, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else path


@pytest.mark.parametrize("path", [_marked(p) for p in PROGRAMS], ids=lambda p: p.name)
def test_gradguard_reports_what_the_header_expects(path):
    """gradguard's side of `test_program`, without TensorFlow: in the fast loop, a change of what
    gradguard reports on the corpus shows at once."""
    text = path.read_text(encoding="utf-8")
    source = notebook_source(text) if path.suffix == ".ipynb" else text
    assert found_entries(path, source) == parse_header(text)["findings"], \
        f"{path.name}: gradguard disagrees with the header"


@pytest.mark.parametrize("path", [_marked(p) for p in PROGRAMS], ids=lambda p: p.name)
def test_program(path, tf_harness):
    source = _source(path, tf_harness)
    header = tf_harness.parse_header(path.read_text(encoding="utf-8"))
    assert found_entries(path, source) == header["findings"], f"{path.name}: gradguard disagrees with the header"
    filename = path.stem + ".py"  # notebooks run as their cells joined in order
    before = tf_harness.run_program(source, filename)
    assert tf_harness.matches(before, header["tensorflow"]), f"{path.name}: {before.describe()}"
    fixed = header.get("fixed")
    if header["expect"] and fixed and fixed != "nofix":
        check_fixed(tf_harness, source, filename, fixed, before)


@pytest.mark.parametrize("path", GAPS, ids=lambda p: p.name)
def test_gap_program_tensorflow(path, tf_harness):
    """A program gradguard does not handle yet still does what its header says under TensorFlow."""
    source = _source(path, tf_harness)
    header = tf_harness.parse_header(path.read_text(encoding="utf-8"))
    before = tf_harness.run_program(source, path.stem + ".py")
    assert tf_harness.matches(before, header["tensorflow"]), f"{path.name}: {before.describe()}"
