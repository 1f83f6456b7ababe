"""A syntax error in one notebook cell hides nothing in the others (rules/api.py's notebook paths),
and positions in a dedented cell map back into the cell.

IPython compiles each cell on its own: a cell that does not parse runs none of its lines, the
other cells run. `lint` reports that cell's E999 (in the cell, once) and analyses the notebook
without it; `lint_tolerant` (the editor) recovers inside that cell only. A Python file keeps one
E999 and nothing else.
"""
from __future__ import annotations

import io
import json
import pickle

import pytest

from gradguard.rules import api
from gradguard.rules.app import check, cli
from gradguard.rules.diagnostics import Diagnostic, Edit, Fix, Related, Safety, Severity, Span
from gradguard.rules.project.config import Config
from gradguard.rules.source.notebook import JoinedSource, Notebook, join_cells, relabel_lines
from gradguard.server import analysis
from gradguard.server.documents import Encoding, TextDocument

IMPORTS = "import tensorflow as tf\nx = tf.Variable(1.0)\n"
EXERCISE = "batch_size =\n"                     # a course notebook's placeholder: a real error
DEDENTED = "  with tf.GradientTape() as tape:\n    y = x.numpy() * 2.0\n  g = tape.gradient(y, x)\n"
NO_BODY = "def f():\n"
SHELL_THEN_BUG = ("!pip install -q tensorflow-hub \\\n    tensorflow-text\n"
                  "with tf.GradientTape() as tape2:\n    z = x.numpy()\nh = tape2.gradient(z, x)\n")
CELLS = [IMPORTS, EXERCISE, DEDENTED, NO_BODY, SHELL_THEN_BUG]


def notebook_text(cells=CELLS) -> str:
    code = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c} for c in cells]
    code.insert(1, {"cell_type": "markdown", "metadata": {}, "source": "# Notes"})  # cell numbers count it
    return json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def in_cells(notebook: Notebook, diagnostics):
    """(code, 1-based cell number, line in the cell, 0-based column in the cell, message as shown)."""
    out = []
    for d in diagnostics:
        index, line, col = notebook.cell_position(d.span.line, d.span.col)
        out.append((d.code, index + 1, line, col, relabel_lines(d.message, notebook.cell_of_line)))
    return out


NUMPY_IN_DEDENTED = ("GG101", 4, 2, 8, "`x` (depends on the variable `x`) leaves TensorFlow through `.numpy()`; "
                     "the loss given to `tape.gradient` in cell 4, line 3 gets no gradient for `x`")
NUMPY_AFTER_SHELL = ("GG101", 6, 4, 8, "`x` (depends on the variable `x`) leaves TensorFlow through `.numpy()`; "
                     "the loss given to `tape2.gradient` in cell 6, line 5 gets no gradient for `x`")


def test_each_broken_cell_has_its_e999_and_the_other_cells_are_analysed():
    notebook = Notebook(notebook_text())
    assert notebook.source.broken == [1, 3]
    assert in_cells(notebook, api.lint(notebook.source, "nb.ipynb")) == [
        ("E999", 3, 1, 12, "SyntaxError: invalid syntax"),
        NUMPY_IN_DEDENTED,
        ("E999", 5, 1, 8, "SyntaxError: expected an indented block after function definition in cell 5, line 1"),
        NUMPY_AFTER_SHELL,
    ]


def test_the_same_code_as_a_python_file_is_one_e999_and_nothing_else():
    source = str(Notebook(notebook_text()).source)  # a plain str: no cells
    assert [(d.code, d.span, d.message) for d in api.lint(source, "nb.py")] == [
        ("E999", Span(3, 12, 3, 12), "SyntaxError: invalid syntax")]


def test_a_notebook_whose_cells_all_parse_is_linted_as_before():
    notebook = Notebook(notebook_text([IMPORTS, DEDENTED, SHELL_THEN_BUG]))
    assert notebook.source.broken == []
    assert [d.code for d in api.lint(notebook.source, "nb.ipynb")] == ["GG101", "GG101"]


def test_an_error_after_a_cells_last_line_is_placed_at_its_end():
    """Python reports a missing block on the line after `def f():`, which is the next cell."""
    notebook = Notebook(notebook_text([NO_BODY, IMPORTS]))
    [error] = api.lint(notebook.source, "nb.ipynb")
    assert error.span == Span(1, 8, 1, 8) and notebook.cell_position(1, 8) == (0, 1, 8)


def test_the_error_column_is_the_cells_not_the_notebook_files():
    """CPython reads the error's line from the named file to count its column: for a notebook that
    is a line of JSON, which once put the caret at column 8 of `  image = # YOUR CODE HERE`."""
    cells = ["import tensorflow as tf\n", "def format_example(image, label):\n  image = # YOUR CODE HERE\n  return image\n"]
    text = notebook_text(cells)
    [error] = api.lint(Notebook(text).source, __file__)  # an existing file whose lines are not the cells'
    assert (error.code, error.span) == ("E999", Span(3, 10, 3, 10))


def _fake(diagnostics):
    return lambda source, path="<stdin>", **_: list(diagnostics)


def test_findings_in_a_blanked_cell_are_dropped_and_fixes_into_it_too(monkeypatch):
    """Nothing is reported in, or written into, a cell that was left out."""
    notebook = Notebook(notebook_text())
    in_broken = Diagnostic("GG101", Severity.ERROR, "in the broken cell", Span(3, 0, 3, 5))
    into_broken = Fix("edit the broken cell", Safety.SAFE, (Edit(Span(3, 0, 3, 1), "b"),))
    keep = Fix("edit this cell", Safety.SAFE, (Edit(Span(5, 6, 5, 15), "x"),))
    reaching = Diagnostic("GG102", Severity.ERROR, "fine", Span(5, 6, 5, 15), fixes=(into_broken, keep))
    related = Diagnostic("GG103", Severity.ERROR, "points into it", Span(5, 6, 5, 15),
                         related=(Related(Span(3, 0, 3, 5), "here"),))
    monkeypatch.setattr(api, "findings", _fake([in_broken, reaching, related]))
    found = api.lint(notebook.source, "nb.ipynb")
    assert [(d.code, d.fixes) for d in found] == [("E999", ()), ("GG102", (keep,)), ("E999", ())]


def test_fix_writes_the_other_cells_and_leaves_the_broken_ones_as_they_are():
    text = notebook_text()
    outcome = check.fix_document(text, True, lambda source: api.lint(source, "nb.ipynb"), True)
    cells = [c for c in json.loads(outcome.target.text)["cells"] if c["cell_type"] == "code"]
    assert ["".join(c["source"]) for c in cells] == [
        IMPORTS, EXERCISE, DEDENTED.replace("x.numpy()", "x"), NO_BODY, SHELL_THEN_BUG.replace("x.numpy()", "x")]
    assert outcome.fixed == 2 and [d.code for d in outcome.diagnostics] == ["E999", "E999"]


def test_check_prints_each_syntax_error_in_its_cell_and_the_findings(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nb.ipynb").write_text(notebook_text(), encoding="utf-8")
    assert cli.main(["check", "--no-cache", "-q", "nb.ipynb"]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("nb.ipynb")]
    assert lines == [
        "nb.ipynb:cell 3:1:13: E999 SyntaxError: invalid syntax",
        f"nb.ipynb:cell 4:2:9: GG101 {NUMPY_IN_DEDENTED[4]}",
        "nb.ipynb:cell 5:1:9: E999 SyntaxError: expected an indented block after function definition in cell 5, line 1",
        f"nb.ipynb:cell 6:4:9: GG101 {NUMPY_AFTER_SHELL[4]}",
    ]


def test_check_fix_keeps_the_broken_cells(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "nb.ipynb"
    path.write_text(notebook_text(), encoding="utf-8")
    assert cli.main(["check", "--no-cache", "--fix", "--unsafe-fixes", "nb.ipynb"]) == 1
    out = capsys.readouterr().out
    assert "Found 4 errors (2 fixed, 2 remaining)." in out and out.count("E999") == 2
    cells = ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]
    assert cells[2] == EXERCISE and cells[4] == NO_BODY and "numpy" not in cells[3] + cells[5]


# -- the editor (lint_tolerant) -----------------------------------------------------------------


HALF_TYPED = "import numpy as np\nlr = (\nwith tf.GradientTape() as t3:\n    w = np.sum(x)\nk = t3.gradient(w, x)\n"


def test_tolerant_lint_recovers_inside_the_broken_cell_only():
    """A half-typed module-level line blanks the scope it is in: in a notebook that is its cell,
    not every module-level line of every cell (what a Python file gets)."""
    typed = Notebook(notebook_text([IMPORTS, HALF_TYPED.replace("lr = (", "lr = 0.1"), DEDENTED]))
    assert [(d.code, typed.cell_position(d.span.line, d.span.col)) for d in
            api.lint_tolerant(typed.source, "nb.ipynb")] == [("GG102", (2, 4, 8)), ("GG101", (3, 2, 8))]
    notebook = Notebook(notebook_text([IMPORTS, HALF_TYPED, DEDENTED]))
    assert in_cells(notebook, api.lint_tolerant(notebook.source, "nb.ipynb")) == [NUMPY_IN_DEDENTED]
    assert api.lint_tolerant(str(notebook.source), "nb.py") == []  # a file: one scope, all dropped


def test_tolerant_lint_keeps_findings_of_a_broken_cells_functions():
    cell = ("import numpy as np\ndef step():\n    with tf.GradientTape() as t:\n        y = np.sum(x)\n"
            "    return t.gradient(y, x)\nsteps = (\n")
    notebook = Notebook(notebook_text([IMPORTS, cell]))
    assert [(d.code, notebook.cell_position(d.span.line, d.span.col)) for d in
            api.lint_tolerant(notebook.source, "nb.ipynb")] == [("GG102", (2, 4, 12))]


def test_the_server_shows_the_other_cells_and_dedented_columns():
    texts = [IMPORTS, EXERCISE, DEDENTED]
    documents = [TextDocument(f"cell:{n}", text, 1) for n, text in enumerate(texts)]
    snap = analysis.snapshot("nb", "nb.ipynb", documents, True, Config(), Encoding("utf-16"), cell_numbers=(1, 3, 4))
    result = analysis.analyze(snap)
    assert [len(result.by_uri[f"cell:{n}"]) for n in range(3)] == [0, 0, 1]
    [shown] = result.by_uri["cell:2"]
    assert (shown.code, shown.range.start.line, shown.range.start.character, shown.range.end.character) == \
        ("GG101", 1, 8, 17)
    [fix] = shown.data["fixes"]
    assert fix["edits"] == [{"uri": "cell:2", "version": 1, "newText": "x",
                             "range": {"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 17}}}]
    assert shown.message.endswith("the loss given to `tape.gradient` in cell 4, line 3 gets no gradient for `x`")


def test_the_servers_fix_all_leaves_a_dedented_cell_alone():
    """Fix-all writes edits by lines (fix.loop.CellTexts), which would miss a dedented cell's
    columns: its fixes are left to the code action, which shifts them (test above)."""
    flat = DEDENTED.replace("\n  ", "\n").lstrip()
    texts = [IMPORTS, EXERCISE, DEDENTED, flat.replace("tape", "tape5")]
    documents = [TextDocument(f"cell:{n}", text, 1) for n, text in enumerate(texts)]
    snap = analysis.snapshot("nb", "nb.ipynb", documents, True, Config(), Encoding("utf-16"))
    assert analysis.fixed_texts(snap, unsafe=True) == [IMPORTS, EXERCISE, DEDENTED,
                                                       texts[3].replace("x.numpy()", "x")]


# -- the joined source ----------------------------------------------------------------------------


def test_the_joined_source_is_a_str_that_knows_its_cells_and_pickles():
    source, first_lines = join_cells(CELLS)
    assert isinstance(source, JoinedSource) and isinstance(source, str)
    assert first_lines == [1, 3, 4, 7, 8] and source.broken == [1, 3]
    assert list(source.cell_lines(2)) == [4, 5, 6] and source.indent_of(5) == "  " and source.indent_of(1) == ""
    copy = pickle.loads(pickle.dumps(source))  # findings travel back from worker processes
    assert copy == source and copy.first_lines == source.first_lines and copy.cells == source.cells


@pytest.mark.parametrize("lint", [api.lint, api.lint_tolerant])
def test_a_notebook_of_broken_cells_only(lint):
    notebook = Notebook(notebook_text([EXERCISE, NO_BODY]))
    found = lint(notebook.source, "nb.ipynb")
    assert [d.code for d in found] == (["E999", "E999"] if lint is api.lint else [])


def test_a_python_files_error_column_is_its_texts_too(tmp_path, monkeypatch, capsys):
    """The same for stdin checked under the name of an existing, different file (an editor
    piping its unsaved buffer): the column was read off the file on disk."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "short.py").write_text("a\nb\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'import os\nvalue = os.path.join("a", "b") +\n')))
    assert cli.main(["check", "--no-cache", "-q", "-", "--stdin-filename", "short.py"]) == 1
    assert capsys.readouterr().out.startswith("short.py:2:33: E999 SyntaxError: invalid syntax")
