"""The language server maps every position of a notebook finding to the cell's own document: the
range, each related location, and the "on line N" of the joined cells in the message and in the
related messages (issue 15, item 4). In process, on the server's own snapshot of the cells."""
from __future__ import annotations

from gradguard.rules.diagnostics import Diagnostic, Related, Severity, Span
from gradguard.rules.project.config import Config
from gradguard.server import analysis
from gradguard.server.documents import Encoding, TextDocument

CELLS = ["import tensorflow as tf\nx = tf.ones(3)\n", "y = x\n", "with tf.GradientTape() as tape:\n    z = y.numpy()\n"]


def test_message_range_and_related_locations_land_in_the_cells():
    documents = [TextDocument(f"cell:{i}", text) for i, text in enumerate(CELLS)]
    # cells 1, 3 and 4 of the notebook (cell 2 is markdown); joined lines 1-2, 3, 4-5
    snap = analysis.snapshot("nb", "nb.ipynb", documents, True, Config(), Encoding(), cell_numbers=(1, 3, 4))
    diagnostic = Diagnostic(
        "GG101", Severity.ERROR, "`y` leaves TensorFlow; the loss given to `tape.gradient` on line 4 gets none",
        Span(5, 8, 5, 17),
        (Related(Span(2, 0, 2, 1), "`x` starts the gradient here, used on line 3"),
         Related(Span(3, 0, 3, 1), "a note (line 5)")))
    uri, lsp = analysis.to_lsp(diagnostic, snap)
    assert uri == "cell:2"
    assert (lsp.range.start.line, lsp.range.start.character, lsp.range.end.character) == (1, 8, 17)
    assert lsp.message.endswith("`tape.gradient` in cell 4, line 1 gets none")
    related = [(r.location.uri, r.location.range.start.line, r.message) for r in lsp.related_information]
    assert related == [("cell:0", 1, "`x` starts the gradient here, used in cell 3, line 1"),
                       ("cell:1", 0, "a note (cell 4, line 2)")]
