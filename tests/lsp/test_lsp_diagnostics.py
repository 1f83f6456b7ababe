"""Push diagnostics end to end: what an editor without pull diagnostics (Neovim 0.7, Eglot) sees."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from lsp_harness import change_document, lsp_session, open_file, wait_for_diagnostics

TRAIN = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam()


def train_step(x, y):
    with tf.GradientTape() as tape:
        prediction = model(x).numpy()
        loss = tf.reduce_mean((prediction - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def evaluate(x):
    return model(x)
'''
NUMPY_LINE = 9  # 0-based line of `.numpy()`


def _only(published: types.PublishDiagnosticsParams, code: str) -> types.Diagnostic:
    found = [d for d in published.diagnostics if d.code == code]
    assert len(found) == 1, published.diagnostics
    return found[0]


async def test_open_publishes_the_break_with_range_code_link_chain_and_fix(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_diagnostics(client, uri, 1)
    diagnostic = _only(published, "GG101")
    line = TRAIN.splitlines()[NUMPY_LINE]
    start = line.index("model(x).numpy()")
    assert diagnostic.range == types.Range(types.Position(NUMPY_LINE, start),
                                           types.Position(NUMPY_LINE, start + len("model(x).numpy()")))
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.source == "gradguard"
    assert diagnostic.code_description.href.endswith("/docs/rules/GG101.md")
    chain = [(r.location.range.start.line, r.message) for r in diagnostic.related_information]
    assert any(line_ == NUMPY_LINE and "starts the gradient" in message for line_, message in chain), chain
    assert any(line_ == 11 and "tape.gradient" in message for line_, message in chain), chain
    fixes = diagnostic.data["fixes"]
    assert fixes and fixes[0]["preferred"] and fixes[0]["edits"][0]["version"] == 1


async def test_a_client_without_related_information_gets_the_message_alone(tmp_path):
    # Eglot (Emacs 29) declares `publishDiagnostics.relatedInformation: false`; the message itself
    # names the line where the loss reaches `tape.gradient`.
    async with lsp_session(tmp_path, "emacs") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_diagnostics(client, uri, 1)
    diagnostic = _only(published, "GG101")
    assert diagnostic.related_information is None
    assert "on line 12" in diagnostic.message and diagnostic.data["fixes"]


async def test_an_edit_that_fixes_the_break_clears_it_for_that_version(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        line = TRAIN.splitlines()[NUMPY_LINE]
        column = line.index(".numpy()")
        change_document(client, uri, 2, (NUMPY_LINE, column), (NUMPY_LINE, column + len(".numpy()")), "")
        published = await wait_for_diagnostics(client, uri, 2)
    assert list(published.diagnostics) == []


async def test_closing_a_document_clears_its_diagnostics(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
        for _ in range(500):
            if client.published[-1].uri == uri and not client.published[-1].diagnostics:
                break
            await asyncio.sleep(0.01)
    assert client.published[-1].uri == uri and not client.published[-1].diagnostics


async def test_half_typed_code_elsewhere_keeps_the_finding(tmp_path):
    """Typing `x = (` in another function must not hide the break in train_step."""
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        last = len(TRAIN.splitlines()) - 1  # `    return model(x)`
        change_document(client, uri, 2, (last, 4), (last, 4), "scores = (\n    ")
        published = await wait_for_diagnostics(client, uri, 2)
        assert [d.code for d in published.diagnostics] == ["GG101"]
        assert published.diagnostics[0].range.start.line == NUMPY_LINE
        change_document(client, uri, 3, (NUMPY_LINE, 0), (NUMPY_LINE, 0), "        if (\n")  # breaks train_step itself
        published = await wait_for_diagnostics(client, uri, 3)
    assert all(d.source == "gradguard" for d in published.diagnostics)  # no crash, no E999 noise


FILLER = "".join(f"\n\ndef helper_{i}(x):\n    y = tf.reduce_sum(x) * {i}\n    return y + 1\n" for i in range(300))


async def test_a_storm_of_edits_ends_with_the_newest_version_and_right_positions(tmp_path):
    """200 keystrokes into a 1,500-line file, no waiting: versions only move forward and the last
    version is the one analysed, at the right positions."""
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN + FILLER)
        await wait_for_diagnostics(client, uri, 1)
        typed = "\n# " + "x" * 198  # a new line above train_step, then a comment, a key at a time
        for index, char in enumerate(typed):
            column = index - 1 if index else 0
            change_document(client, uri, index + 2, (6, column), (6, column), char)
        final = len(typed) + 1
        published = await wait_for_diagnostics(client, uri, final)
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions), "a stale analysis was published after a newer one"
    # How many versions coalesce depends on the machine's speed; tests/test_scheduler.py checks
    # the coalescing itself, deterministically.
    diagnostic = _only(published, "GG101")
    assert diagnostic.range.start.line == NUMPY_LINE + 1  # the typed comment line pushed it down


@pytest.mark.parametrize("client_name, units_of_the_emoji", [("neovim@v0.7.0", 2), ("emacs", 1)],
                         ids=["utf-16 (the default)", "utf-32 (negotiated by Eglot)"])
async def test_columns_are_counted_in_the_negotiated_encoding(tmp_path, client_name, units_of_the_emoji):
    text = TRAIN.replace("        prediction = model(x).numpy()",
                         "        prediction = [\"😀\", model(x).numpy()][1]")
    async with lsp_session(tmp_path, client_name) as client:
        uri = open_file(client, tmp_path / "train.py", text)
        published = await wait_for_diagnostics(client, uri, 1)
    code_points = text.splitlines()[NUMPY_LINE].index("model(x)")
    assert _only(published, "GG101").range.start.character == code_points - 1 + units_of_the_emoji


async def test_requests_about_unknown_documents_get_empty_answers(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier("file:///nowhere/missing.py"),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[]),
        ))
        change_document(client, "file:///nowhere/missing.py", 2, (0, 0), (0, 0), "x")
        uri = open_file(client, tmp_path / "train.py", TRAIN)  # and the server still works
        published = await wait_for_diagnostics(client, uri, 1)
    assert list(actions or []) == [] and [d.code for d in published.diagnostics] == ["GG101"]
