"""The fast pass keeps the LSP form of each diagnostic a part the edit did not touch still has
(server/analysis.py `LspForms`): after every edit the diagnostics it publishes are the ones a fresh
conversion gives, fixes carrying the documents' new versions. In process, on the server's own
snapshots and incremental parser."""
from __future__ import annotations

import json
import random

from lsprotocol import types

from gradguard.rules.project.config import Config
from gradguard.rules.source.incremental import IncrementalParser
from gradguard.server import analysis, publication
from gradguard.server.documents import Encoding, TextDocument
from test_server_lens_recording import TRAIN as STEP

# Two functions apart (two parts), each with a finding that has a fix (GG101's `.numpy()`): the
# lens test's program and a second step of its own.
TRAIN = STEP + '''

def other_step(x):
    other = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(other(x).numpy())
    return tape.gradient(loss, other.trainable_variables)
'''


CONVERTER = publication.lsp_converter()  # the server's: the JSON of a kept diagnostic is made once


def _publish_form(by_uri: dict) -> dict:
    """What a client receives: the diagnostics as JSON, per URI (each list converted twice: the
    second time from what the first one made)."""
    for uri, diagnostics in by_uri.items():
        CONVERTER.unstructure(types.PublishDiagnosticsParams(uri, diagnostics))
    return {uri: json.loads(json.dumps(CONVERTER.unstructure(types.PublishDiagnosticsParams(uri, diagnostics))))
            for uri, diagnostics in by_uri.items()}


def _fresh(documents: list[TextDocument], notebook: bool) -> dict:
    snap = analysis.snapshot("file:///t.py", "/t.py", documents, notebook, Config(), Encoding(), lens=False,
                             cell_numbers=range(1, len(documents) + 1))
    return _publish_form(analysis.analyze(snap).by_uri)


def _edited(documents: list[TextDocument], parser: IncrementalParser, notebook: bool) -> tuple[dict, dict]:
    snap = analysis.snapshot("file:///t.py", "/t.py", documents, notebook, Config(), Encoding(), parser=parser,
                             lens=False, cell_numbers=range(1, len(documents) + 1))
    result = analysis.analyze(snap)
    return _publish_form(result.by_uri), _fresh(documents, notebook)


def _type(document: TextDocument, line: int, column: int, text: str) -> None:
    position = types.Position(line, column)
    document.apply_change(types.TextDocumentContentChangePartial(range=types.Range(position, position), text=text),
                          Encoding())
    document.version += 1


def test_a_kept_part_s_diagnostic_is_published_with_the_new_version(monkeypatch):
    document = TextDocument("file:///t.py", TRAIN, 1)
    parser = IncrementalParser("/t.py")
    first, fresh = _edited([document], parser, False)
    assert first == fresh and len(first["file:///t.py"]["diagnostics"]) == 2
    converted = []
    real_to_lsp = analysis.to_lsp
    monkeypatch.setattr(analysis, "to_lsp", lambda d, snap: converted.append(d.span.line) or real_to_lsp(d, snap))
    _type(document, 14, TRAIN.split("\n")[14].index("(x)") + 2, "s")  # `other(xs)`: step's part is kept
    kept, fresh = _edited([document], parser, False)
    assert kept == fresh
    assert converted == [15, 8, 15]  # the fast pass: other_step's finding alone; the fresh conversion: both
    step_finding = kept["file:///t.py"]["diagnostics"][0]
    assert step_finding["range"]["start"]["line"] == 7
    assert {edit["version"] for fix in step_finding["data"]["fixes"] for edit in fix["edits"]} == {2}


def test_random_edits_publish_what_a_fresh_conversion_gives():
    rng = random.Random(23)
    document = TextDocument("file:///t.py", TRAIN, 1)
    parser = IncrementalParser("/t.py")
    for _ in range(40):
        lines = document.text.split("\n")
        line = rng.randrange(len(lines))
        column = rng.randint(0, len(lines[line]))
        _type(document, line, column, rng.choice(["x", " ", "\n", "é", "\n\n", "#"]))
        published, fresh = _edited([document], parser, False)
        assert published == fresh, document.text


def test_notebook_cells_keep_their_forms_while_another_cell_is_typed_in():
    cells = [TextDocument(f"file:///t.ipynb#c{i}", text, 1) for i, text in enumerate(
        ["import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n",
         "def step(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x).numpy())\n"
         "    return tape.gradient(loss, model.trainable_variables)\n",
         "def other(x):\n    y = x\n    return y\n"])]
    parser = IncrementalParser("/t.ipynb")
    first, fresh = _edited(cells, parser, True)
    assert first == fresh and len(first["file:///t.ipynb#c1"]["diagnostics"]) == 1
    _type(cells[2], 1, 5, "z")
    _type(cells[2], 2, 12, "z")  # `y = xz` ... `return yz`: only the third cell changed
    kept, fresh = _edited(cells, parser, True)
    assert kept == fresh
    _type(cells[0], 0, 0, "\n")  # a line above every cell's finding: every range moves
    moved, fresh = _edited(cells, parser, True)
    assert moved == fresh
    assert moved["file:///t.ipynb#c1"]["diagnostics"][0]["range"]["start"]["line"] == 2


def test_the_fast_pass_reads_the_document_s_own_lines():
    """The lines the document keeps across edits are the ones the analysis reads (not a split of
    the whole text per keystroke), and they are the text's."""
    from gradguard.rules.source.text import split_lines

    document = TextDocument("file:///t.py", TRAIN, 1)
    parser = IncrementalParser("/t.py")
    _edited([document], parser, False)
    _type(document, 14, TRAIN.split("\n")[14].index("(x)") + 2, "s")
    snap = analysis.snapshot("file:///t.py", "/t.py", [document], False, Config(), Encoding(), parser=parser)
    analysis.analyze(snap)
    assert parser.lines_of(snap.source) is document.lines
    assert document.lines == split_lines(document.text)
