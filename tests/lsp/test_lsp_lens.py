"""The gradient lens in the editor (issue 16): hover, inlay hints, the code-lens fallback and their
settings, over stdio with the real server."""
from __future__ import annotations

from lsprotocol import types

from lsp_harness import change_document, lsp_session, open_file, wait_for_diagnostics

TRAIN = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
target_net = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def train_step(x, y):
    with tf.GradientTape() as tape:
        prediction = model(x).numpy()
        loss = tf.reduce_mean((prediction - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    return grads


def good_step(x, y):
    early = model(x)
    with tf.GradientTape() as tape:
        out = model(x)
        loss = tf.reduce_mean((out - y) ** 2) + tf.reduce_mean(early)
    return tape.gradient(loss, model.trainable_variables + target_net.trainable_variables)
'''
LINES = TRAIN.splitlines()


def _at(line: int, text: str, offset: int = 0) -> types.Position:
    return types.Position(line, LINES[line].index(text) + offset)


async def _hover(client, uri: str, position: types.Position) -> str | None:
    found = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), position))
    if found is None:
        return None
    assert found.contents.kind == types.MarkupKind.Markdown
    return found.contents.value


async def test_hover_says_what_a_value_carries_what_cut_it_and_what_the_tape_never_saw(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        carried = await _hover(client, uri, _at(18, "model(x)"))
        cut = await _hover(client, uri, _at(10, "loss"))
        early = await _hover(client, uri, _at(16, "early"))
        nothing = await _hover(client, uri, _at(4, "target_net"))
        numpy = await _hover(client, uri, _at(9, ".numpy()", 3))
    assert carried.splitlines()[0] == "**gradguard** · `model(x)`"
    assert carried.splitlines()[2] == f"- carries the gradient of `model` (started at [19:15]({uri}#L19,15))"
    assert cut.splitlines()[2] == (
        f"- constant to `tape`: cut by `.numpy()` at [10:22]({uri}#L10,22) (was the output of `model`) "
        f"([GG101](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md))")
    assert early.splitlines()[2] == "- not recorded: computed before the `with` block of `tape` (from the output of `model`)"
    assert nothing is None  # not in code a tape records: other servers' hovers show alone
    assert "cut by `.numpy()`" in numpy


async def test_inlay_hints_after_each_gradient_call(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.10.0") as client:  # a client with inlay hints
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        whole = types.Range(types.Position(0, 0), types.Position(len(LINES), 0))
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    found = sorted((h.position.line, h.position.character, h.label, h.tooltip) for h in hints)
    assert found == [
        (11, len(LINES[11]), " ✗ model: cut by `.numpy()` at 10:22", "✗ model: cut by `.numpy()` at 10:22"),
        (20, len(LINES[20]), " ✓ model, ✗ target_net: loss never uses it", "✓ model\n✗ target_net: loss never uses it"),
    ]
    assert not lenses  # the client shows the inlay hints: no code lens besides


async def test_a_client_without_inlay_hints_gets_code_lenses(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:  # VS Code 1.65 has none either
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [(lens.range.start.line, lens.command.title) for lens in lenses] == [
        (11, "gradguard: ✗ model: cut by `.numpy()` at 10:22"),
        (20, "gradguard: ✓ model, ✗ target_net: loss never uses it")]


async def test_the_lens_follows_edits_and_the_settings_turn_it_off(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        column = LINES[9].index(".numpy()")
        change_document(client, uri, 2, (9, column), (9, column + len(".numpy()")), "")
        fixed = await _hover(client, uri, _at(10, "loss"))
        client.set_configuration({"gradguard": {"lens": {"hover": False, "inlayHints": False}}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        whole = types.Range(types.Position(0, 0), types.Position(len(LINES), 0))
        for _ in range(200):
            off = await _hover(client, uri, _at(10, "loss"))
            if off is None:
                break
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
    assert fixed.splitlines()[2] == f"- carries the gradient of `model` (started at [10:22]({uri}#L10,22))"
    assert off is None and not hints


async def test_the_lens_in_notebook_cells_names_cells(tmp_path):
    from test_lsp_notebooks import CELLS, notebook_capabilities, open_notebook

    async with lsp_session(tmp_path, notebook_capabilities()) as client:
        _, uris = open_notebook(client, tmp_path)
        tape_cell, gradient_cell = uris[2], uris[3]
        hover = await _hover(client, tape_cell, types.Position(2, 5))  # `loss` in the tape cell
        whole = types.Range(types.Position(0, 0), types.Position(5, 0))
        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(gradient_cell), whole))
        in_tape_cell = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(tape_cell), whole))
    assert hover.splitlines()[0] == "**gradguard** · `loss`"
    assert hover.splitlines()[2] == (f"- constant to `tape`: cut by `.numpy()` at [cell 3:2:12]({tape_cell}#L2,12) "
                                     "(was the output of `model`) "
                                     "([GG101](https://github.com/gradguard/gradguard/blob/main/docs/rules/GG101.md))")
    first_line = CELLS[3][1].splitlines()[0]
    assert [(h.position.line, h.position.character, h.label) for h in hints] == [
        (0, len(first_line), " ✗ model: cut by `.numpy()` at cell 3:2:12")]
    assert not in_tape_cell
