"""Notebooks over LSP 3.17 notebook sync: code cells are one program, diagnostics land per cell.

The notebook used throughout: the model is built in cell 0, cell 1 is markdown, cell 2 opens the
tape and breaks the gradient with `.numpy()`, cell 3 asks the tape for the gradient.
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from lsp_harness import TIMEOUT, apply_text_edits, edits_for, lsp_session, open_file, wait_for_diagnostics

CODE = types.NotebookCellKind.Code
MARKUP = types.NotebookCellKind.Markup

MODEL_CELL = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 4).astype(np.float32)
y = np.random.rand(8, 1).astype(np.float32)
"""
MARKDOWN_CELL = "## One training step\nThe loss goes through numpy here.\n"
TAPE_CELL = """\
with tf.GradientTape() as tape:
    pred = model(x).numpy()
    loss = tf.reduce_mean(tf.square(y - pred))
"""
GRADIENT_CELL = """\
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""
CELLS = [(CODE, MODEL_CELL), (MARKUP, MARKDOWN_CELL), (CODE, TAPE_CELL), (CODE, GRADIENT_CELL)]

# `model(x).numpy()` on line 1 of the tape cell, columns 11..27.
BREAK = types.Range(types.Position(1, 11), types.Position(1, 27))


def notebook_capabilities() -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities())
    return caps


def cell_uri(root: Path, name: str) -> str:
    # The shape VS Code gives cell URIs: the notebook path with a fragment naming the cell.
    return f"vscode-notebook-cell:{root.as_posix()}/train.ipynb#{name}"


def open_notebook(client: LanguageClient, root: Path, cells=CELLS) -> tuple[str, list[str]]:
    notebook_uri = (root / "train.ipynb").as_uri()
    uris = [cell_uri(root, f"C{index}") for index in range(len(cells))]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=notebook_uri, notebook_type="jupyter-notebook", version=1,
            cells=[types.NotebookCell(kind=kind, document=uri) for uri, (kind, _) in zip(uris, cells)]),
        cell_text_documents=[
            types.TextDocumentItem(uri, "python" if kind == CODE else "markdown", 1, text)
            for uri, (kind, text) in zip(uris, cells)],
    ))
    return notebook_uri, uris


def change_cell(client: LanguageClient, notebook_uri: str, notebook_version: int, uri: str, version: int,
                text: str) -> None:
    """notebookDocument/didChange replacing one cell's whole text."""
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(notebook_version, notebook_uri),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                changes=[types.TextDocumentContentChangeWholeDocument(text=text)]),
        ])),
    ))


async def wait_for_publish_after(client: LanguageClient, uri: str, since: int,
                                  timeout: float = TIMEOUT) -> types.PublishDiagnosticsParams:
    """The first diagnostics published for `uri` at index `since` or later of client.published."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in client.published[since:]:
            if params.uri == uri:
                return params
        await asyncio.sleep(0.01)
    raise AssertionError(f"no new diagnostics for {uri} within {timeout} s")


async def wait_until(condition, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def codes(params: types.PublishDiagnosticsParams) -> list[str]:
    return [d.code for d in params.diagnostics]


# ---------------------------------------------------------------------------------------------


async def test_break_in_tape_cell_is_reported_on_that_cell_with_cell_relative_range(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        published = await wait_for_diagnostics(client, uris[2], version=1)

    assert codes(published) == ["GG101"]
    assert published.diagnostics[0].range == BREAK
    assert published.diagnostics[0].source == "gradguard"


async def test_related_information_points_into_the_cells_it_names(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        published = await wait_for_diagnostics(client, uris[2], version=1)

    related = published.diagnostics[0].related_information
    assert related, "GG101 should explain where the gradient starts and where the loss is used"
    by_message = {r.message: r.location for r in related}
    starts = next(loc for msg, loc in by_message.items() if "starts the gradient" in msg)
    reaches = next(loc for msg, loc in by_message.items() if "tape.gradient" in msg)
    # the call `model(x)` in `pred = model(x).numpy()`: tape cell, line 1.
    assert starts.uri == uris[2]
    assert starts.range == types.Range(types.Position(1, 11), types.Position(1, 19))
    # `loss` passed to tape.gradient: the gradient cell, line 0, `tape.gradient(...)` from column 8.
    assert reaches.uri == uris[3]
    assert reaches.range.start == types.Position(0, 8)


async def test_code_cells_without_findings_get_empty_diagnostics(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        model_cell = await wait_for_diagnostics(client, uris[0], version=1)
        gradient_cell = await wait_for_diagnostics(client, uris[3], version=1)
        await wait_for_diagnostics(client, uris[2], version=1)

    assert list(model_cell.diagnostics) == []
    assert list(gradient_cell.diagnostics) == []
    assert all(not p.diagnostics for p in client.published if p.uri == uris[1]), "markdown cell has no findings"


async def _actions_for_the_break(client, cell_uri: str, only=None) -> list[types.CodeAction]:
    """The code actions offered for the first diagnostic published on the cell."""
    published = await wait_for_diagnostics(client, cell_uri, version=1)
    diagnostic = published.diagnostics[0]
    return list(await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(cell_uri),
        range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
    )) or [])


async def test_quick_fix_edits_only_the_cell_with_the_break(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        actions = await _actions_for_the_break(client, uris[2], only=[types.CodeActionKind.QuickFix])

    fixes = [a for a in actions if a.is_preferred]
    assert len(fixes) == 1, [a.title for a in actions]
    fix = fixes[0]
    assert "GG101" in fix.title
    assert [uri for uri in uris if edits_for(fix.edit, uri)] == [uris[2]]
    fixed = apply_text_edits(TAPE_CELL, edits_for(fix.edit, uris[2]))
    assert fixed == TAPE_CELL.replace("model(x).numpy()", "model(x)")


async def test_ignore_action_comments_the_line_in_the_cell(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        actions = await _actions_for_the_break(client, uris[2])

    ignore = next(a for a in actions if "Ignore GG101" in a.title)
    fixed = apply_text_edits(TAPE_CELL, edits_for(ignore.edit, uris[2])).splitlines()
    assert fixed[1].startswith("    pred = model(x).numpy()")
    assert "GG101" in fixed[1] and "#" in fixed[1]


async def test_editing_a_cell_republishes_for_its_new_version(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        await wait_for_diagnostics(client, uris[2], version=1)
        # Two lines pushed above the tape: the break moves down by two lines in its cell.
        change_cell(client, notebook_uri, 2, uris[2], 2, "# step\n# with numpy\n" + TAPE_CELL)
        published = await wait_for_diagnostics(client, uris[2], version=2)

    assert codes(published) == ["GG101"]
    assert published.diagnostics[0].range == types.Range(types.Position(3, 11), types.Position(3, 27))


async def test_inserting_a_cell_before_keeps_cell_relative_positions(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        await wait_for_diagnostics(client, uris[2], version=1)
        new_uri = cell_uri(tmp_path, "NEW")
        new_text = "batch_size = 8\nepochs = 3\nlearning_rate = 1e-3\n"
        # A three-line code cell between the markdown cell and the tape cell.
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(2, notebook_uri),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                structure=types.NotebookDocumentCellChangeStructure(
                    array=types.NotebookCellArrayChange(
                        start=2, delete_count=0, cells=[types.NotebookCell(kind=CODE, document=new_uri)]),
                    did_open=[types.TextDocumentItem(new_uri, "python", 1, new_text)],
                ))),
        ))
        new_cell = await wait_for_diagnostics(client, new_uri)
        since = client.published.index(new_cell)
        tape_cell = await wait_for_publish_after(client, uris[2], since)
        gradient_cell = await wait_for_publish_after(client, uris[3], since)

    assert list(new_cell.diagnostics) == []
    assert codes(tape_cell) == ["GG101"]
    assert tape_cell.diagnostics[0].range == BREAK
    related = {r.location.uri: r.location.range.start for r in tape_cell.diagnostics[0].related_information}
    assert related[uris[3]] == types.Position(0, 8)
    assert list(gradient_cell.diagnostics) == []


async def test_deleting_the_cell_with_the_break_clears_its_diagnostics(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        assert codes(await wait_for_diagnostics(client, uris[2], version=1)) == ["GG101"]
        since = len(client.published)
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(2, notebook_uri),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                structure=types.NotebookDocumentCellChangeStructure(
                    array=types.NotebookCellArrayChange(start=2, delete_count=1),
                    did_close=[types.TextDocumentIdentifier(uris[2])],
                ))),
        ))
        await wait_until(lambda: any(p.uri == uris[2] and not p.diagnostics for p in client.published[since:]),
                         "the deleted cell's diagnostics to be cleared")
        # The remaining cells are analysed again, without the deleted one.
        await wait_for_publish_after(client, uris[3], since)

    assert not client.diagnostics[uris[2]]


async def test_fixing_the_break_in_the_cell_clears_the_diagnostic(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        before = await wait_for_diagnostics(client, uris[2], version=1)
        change_cell(client, notebook_uri, 2, uris[2], 2, TAPE_CELL.replace("model(x).numpy()", "model(x)"))
        after = await wait_for_diagnostics(client, uris[2], version=2)

    assert codes(before) == ["GG101"]
    assert list(after.diagnostics) == []


async def test_applying_the_quick_fix_as_a_cell_edit_clears_the_diagnostic(tmp_path):
    """The editor applies the fix's edits to the cell (an incremental notebook change)."""
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        published = await wait_for_diagnostics(client, uris[2], version=1)
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uris[2]),
            range=published.diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=list(published.diagnostics)),
        ))
        fix = next(a for a in actions if a.is_preferred)
        edits = edits_for(fix.edit, uris[2])
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(2, notebook_uri),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=uris[2], version=2),
                    changes=[types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
                             for e in edits]),
            ])),
        ))
        after = await wait_for_diagnostics(client, uris[2], version=2)
        await wait_for_publish_after(client, uris[3], client.published.index(after))

    assert list(after.diagnostics) == []
    last = {p.uri: p for p in client.published}
    assert list(last[uris[0]].diagnostics) == [] and list(last[uris[3]].diagnostics) == []


async def test_closing_the_notebook_clears_every_cells_diagnostics(tmp_path):
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        notebook_uri, uris = open_notebook(client, tmp_path)
        await wait_for_diagnostics(client, uris[2], version=1)
        await wait_for_diagnostics(client, uris[3], version=1)
        since = len(client.published)
        client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(notebook_uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri) for uri in uris],
        ))
        for code_uri in (uris[0], uris[2], uris[3]):
            await wait_until(lambda u=code_uri: any(p.uri == u and not p.diagnostics for p in client.published[since:]),
                             f"{code_uri} to be cleared")
        # A barrier: the single analysis worker has finished anything queued before the close
        # once a document opened afterwards is published; nothing may re-publish the cells.
        other = open_file(client, tmp_path / "other.py", "x = 1\n")
        await wait_for_diagnostics(client, other)

    last = {p.uri: p for p in client.published}
    assert all(list(last[uri].diagnostics) == [] for uri in (uris[0], uris[2], uris[3]))


async def test_ipython_magics_do_not_break_analysis(tmp_path):
    cells = [
        (CODE, "%matplotlib inline\n!pip install x\n" + MODEL_CELL),
        (MARKUP, MARKDOWN_CELL),
        (CODE, "!nvidia-smi\n%load_ext autoreload\n" + TAPE_CELL),
        (CODE, GRADIENT_CELL),
    ]
    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path, cells)
        tape_cell = await wait_for_diagnostics(client, uris[2], version=1)
        model_cell = await wait_for_diagnostics(client, uris[0], version=1)

    assert codes(tape_cell) == ["GG101"]
    assert tape_cell.diagnostics[0].range == types.Range(types.Position(3, 11), types.Position(3, 27))
    assert list(model_cell.diagnostics) == []
