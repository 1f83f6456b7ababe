"""Notebooks as one Python source (rules/source/notebook.py), and edits written back into their cells
(rules/fix/loop.py)."""
from __future__ import annotations

import ast
import json

import pytest

from gradguard.rules.api import apply_edits
from gradguard.rules.diagnostics import Edit, Fix, Safety, Span
from gradguard.rules.fix.edits import non_conflicting_edits
from gradguard.rules.fix.loop import notebook_with_edits
from gradguard.rules.source.notebook import Notebook, NotebookError, python_lines


def code(source, **extra):
    cell = {"cell_type": "code", "execution_count": 1, "id": "c", "metadata": {}, "outputs": [], "source": source}
    cell.update(extra)
    return cell


def markdown(text):
    return {"cell_type": "markdown", "id": "m", "metadata": {}, "source": text}


def notebook_text(*cells, indent=1) -> str:
    data = {"cells": list(cells), "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


OUTPUT = {"name": "stdout", "output_type": "stream", "text": ["tensor → 3\n"]}
NB = notebook_text(
    code(["import tensorflow as tf\n", "x = tf.ones(3)"], id="first"),
    markdown(["# Training ✓\n"]),
    code(["with tf.GradientTape() as tape:\n", "    y = x.numpy()\n"], id="second", outputs=[OUTPUT]),
    code([], id="empty"),
    code("z = y\n", id="string-source"),
)


def test_code_cells_are_joined_line_for_line():
    notebook = Notebook(NB)
    assert notebook.source == (
        "import tensorflow as tf\nx = tf.ones(3)\n"
        "with tf.GradientTape() as tape:\n    y = x.numpy()\n"
        "z = y\n"
    )
    assert [(c.index, c.first_line, c.line_count) for c in notebook.cells] == [(0, 1, 2), (2, 3, 2), (3, 5, 0), (4, 5, 1)]


def test_cell_position_maps_joined_lines_to_cells():
    notebook = Notebook(NB)
    assert notebook.cell_position(1, 0) == (0, 1, 0)
    assert notebook.cell_position(4, 8) == (2, 2, 8)
    assert notebook.cell_position(5, 0) == (4, 1, 0)
    with pytest.raises(NotebookError):
        notebook.cell_position(9, 0)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("%matplotlib inline\nx = 1\n", ["pass\n", "x = 1\n"]),
        ("!pip install tensorflow\nx = 1", ["pass\n", "x = 1\n"]),
        ("files = !ls\nx = 1\n", ["files = get_ipython().getoutput('ls')\n", "x = 1\n"]),  # x stays bound
        ("tf.reduce_mean?\n", ["pass\n"]),
        ("??tf.reduce_mean\n", ["pass\n"]),
        ("for i in range(3):\n    %time f(i)\n", ["for i in range(3):\n", "    pass\n"]),  # block stays valid
        ("%%bash\necho hi\nls\n", ["pass\n", "\n", "\n"]),
        ("%%time\ny = x.numpy()\n", ["pass\n", "y = x.numpy()\n"]),                          # Python body kept
        ("y = (a\n     % b)\n", ["y = (a\n", "     % b)\n"]),                                  # valid Python kept
        ('s = """\n%d items?\n"""\n', ['s = """\n', "%d items?\n", '"""\n']),
        ("", []),
    ],
)
def test_ipython_syntax_becomes_pass(cell, expected):
    lines = python_lines(cell)
    assert lines == expected
    ast.parse("".join(lines))


def test_notebook_with_magics_parses_and_keeps_line_count():
    notebook = Notebook(notebook_text(code(["%load_ext autoreload\n", "!nvidia-smi\n", "y = 1\n"])))
    assert notebook.source == "pass\npass\ny = 1\n"
    assert notebook.cell_position(3, 0) == (0, 3, 0)


def test_to_cell_edits_moves_positions_into_cells():
    notebook = Notebook(NB)
    edits = [Edit(Span(4, 9, 4, 17), ""), Edit(Span(1, 0, 1, 0), "import numpy as np\n")]
    assert notebook.to_cell_edits(edits) == {
        2: [Edit(Span(2, 9, 2, 17), "")],
        0: [Edit(Span(1, 0, 1, 0), "import numpy as np\n")],
    }


def test_edit_removing_a_cells_last_line_stays_in_that_cell():
    notebook = Notebook(NB)
    assert notebook.to_cell_edits([Edit(Span(4, 0, 5, 0), "")]) == {2: [Edit(Span(2, 0, 3, 0), "")]}


def test_edit_spanning_two_cells_is_refused():
    with pytest.raises(NotebookError, match="spans two cells"):
        Notebook(NB).to_cell_edits([Edit(Span(2, 0, 3, 5), "")])


def test_edit_appending_at_the_end_goes_to_the_last_cell():
    notebook = Notebook(NB)
    assert notebook.to_cell_edits([Edit(Span(6, 0, 6, 0), "w = 1\n")]) == {4: [Edit(Span(2, 0, 2, 0), "w = 1\n")]}


def test_apply_writes_cells_back_and_keeps_everything_else():
    notebook = Notebook(NB)
    out = notebook_with_edits(notebook, [Edit(Span(4, 9, 4, 17), ""), Edit(Span(1, 0, 1, 0), "import numpy as np\n")])
    data, before = json.loads(out), json.loads(NB)
    assert data["cells"][2]["source"] == ["with tf.GradientTape() as tape:\n", "    y = x\n"]
    assert data["cells"][0]["source"] == ["import numpy as np\n", "import tensorflow as tf\n", "x = tf.ones(3)"]
    assert data["cells"][2]["outputs"] == [OUTPUT]
    for key in ("metadata", "nbformat", "nbformat_minor"):
        assert data[key] == before[key]
    assert [c["id"] for c in data["cells"]] == ["first", "m", "second", "empty", "string-source"]
    assert data["cells"][1] == before["cells"][1]            # markdown untouched
    assert data["cells"][4]["source"] == "z = y\n"          # unchanged cells keep their form
    assert out.endswith("}\n") and "tensor → 3" in out and '\n "cells": [' in out  # indent=1, no \\u escapes


def test_apply_keeps_a_wider_indent():
    text = notebook_text(code(["y = x.numpy()\n"]), indent=2)
    out = notebook_with_edits(Notebook(text), [Edit(Span(1, 5, 1, 13), "")])
    assert out == text.replace("x.numpy()", "x")


def test_apply_matches_plain_edits_on_the_joined_source():
    notebook = Notebook(NB)
    edits = [Edit(Span(4, 9, 4, 17), ""), Edit(Span(2, 4, 2, 14), "tf.zeros(3)")]
    assert Notebook(notebook_with_edits(notebook, edits)).source == apply_edits(notebook.source, edits)


def test_apply_fixes_skips_conflicting_fixes():
    notebook = Notebook(NB)
    first = Fix("drop", Safety.SAFE, (Edit(Span(4, 9, 4, 17), ""),))
    clash = Fix("other", Safety.SAFE, (Edit(Span(4, 10, 4, 12), "zz"),))
    out = Notebook(notebook_with_edits(notebook, non_conflicting_edits([first, clash])))
    assert out.source.splitlines()[3] == "    y = x"


def test_no_code_cells():
    notebook = Notebook(notebook_text(markdown("hi")))
    assert notebook.source == "" and notebook.cells == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"invalid notebook JSON: .*\(line 1, column 2\)"),
        ("[]", 'no "cells" list'),
        ('{"cells": {}}', 'no "cells" list'),
        ('{"cells": [3]}', "cell 1 is not an object"),
        ('{"cells": [{"cell_type": "code", "source": 5}]}', "cell 1 has a source that is not text"),
    ],
)
def test_bad_notebooks_raise_notebook_error(text, message):
    with pytest.raises(NotebookError, match=message):
        Notebook(text)


def test_messages_name_cells_not_joined_lines():
    from gradguard.rules.source.notebook import relabel_lines

    cells = {12: (4, 2), 14: (4, 4)}
    assert relabel_lines("the loss given to `tape.gradient` on line 12 gets none", cells.get) == \
        "the loss given to `tape.gradient` in cell 4, line 2 gets none"
    assert relabel_lines("`x` leaves through `.numpy()` inside a helper (line 14); y", cells.get) == \
        "`x` leaves through `.numpy()` inside a helper (cell 4, line 4); y"
    assert relabel_lines("inside a helper (utils.py, line 6)", cells.get) == "inside a helper (utils.py, line 6)"


# -- cells IPython dedents: columns map back into the cell ---------------------------------------

DEDENTED_NB = notebook_text(code(["import tensorflow as tf\n"]), code(["  def f(x):\n", "    return x.numpy()\n"]))


def test_a_dedented_cells_columns_map_back_into_the_cell():
    notebook = Notebook(DEDENTED_NB)
    assert notebook.source == "import tensorflow as tf\ndef f(x):\n  return x.numpy()\n"
    assert notebook.cell_position(3, 9) == (1, 2, 11)      # `x.numpy()` in the cell's own line
    assert notebook.cell_position(2, 0) == (1, 1, 2)


def test_an_edit_in_a_dedented_cell_is_shifted_by_its_indentation():
    notebook = Notebook(DEDENTED_NB)
    assert notebook.to_cell_edits([Edit(Span(3, 9, 3, 18), "x")]) == {1: [Edit(Span(2, 11, 2, 20), "x")]}
    out = json.loads(notebook_with_edits(notebook, [Edit(Span(3, 9, 3, 18), "x")]))
    assert out["cells"][1]["source"] == ["  def f(x):\n", "    return x\n"]


@pytest.mark.parametrize("edit", [
    Edit(Span(2, 0, 2, 0), "import numpy as np\n"),   # a new line would need the cell's indentation
    Edit(Span(2, 0, 3, 0), ""),                       # so would joining two lines
])
def test_an_edit_that_would_reindent_a_dedented_cell_is_refused(edit):
    with pytest.raises(NotebookError, match="re-indent"):
        Notebook(DEDENTED_NB).to_cell_edits([edit])


@pytest.mark.parametrize(("cell", "span"), [
    (["%matplotlib inline\n", "y = x.numpy()\n"], Span(1, 0, 1, 4)),
    (["!wget -q \\\n", "    https://example.com/x.csv\n", "y = 1\n"], Span(2, 0, 2, 0)),
    (["files = !ls\n"], Span(1, 8, 1, 12)),
])
def test_an_edit_into_ipython_syntax_is_refused(cell, span):
    with pytest.raises(NotebookError, match="IPython syntax"):
        Notebook(notebook_text(code(cell))).to_cell_edits([Edit(span, "pass")])


def test_an_edit_after_a_magic_goes_to_its_line():
    notebook = Notebook(notebook_text(code(["%matplotlib inline\n", "y = x.numpy()\n"])))
    assert notebook.to_cell_edits([Edit(Span(2, 4, 2, 13), "x")]) == {0: [Edit(Span(2, 4, 2, 13), "x")]}
