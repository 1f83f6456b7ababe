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


# ---------------------------------------------------------------------------------------------
# Recording only when the lens is on; refreshing hints and lenses when a result changes unasked


def _traces(client) -> list[types.LogTraceParams]:
    traces: list[types.LogTraceParams] = []

    @client.feature(types.LOG_TRACE)
    def _trace(params: types.LogTraceParams) -> None:
        traces.append(params)

    return traces


def _refreshes(client) -> dict[str, int]:
    counts = {"inlay": 0, "lens": 0}

    @client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
    def _inlay(params) -> None:
        counts["inlay"] += 1

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def _lens(params) -> None:
        counts["lens"] += 1

    return counts


def _refreshing_client() -> types.ClientCapabilities:
    """Neovim 0.10 (inlay hints) that also announces code-lens refreshes, with pushed diagnostics."""
    from pytest_lsp import client_capabilities

    caps = client_capabilities("neovim@v0.10.0")
    caps.text_document.diagnostic = None
    caps.workspace.inlay_hint = types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
    caps.workspace.code_lens = types.CodeLensWorkspaceClientCapabilities(refresh_support=True)
    return caps


async def test_with_the_lens_off_nothing_is_recorded_and_switching_it_on_answers_at_once(tmp_path):
    from lsp_harness import wait_until

    off = {"lens": {"hover": False, "inlayHints": False}}
    async with lsp_session(tmp_path, _refreshing_client(), settings=off) as client:
        traces = _traces(client)
        refreshes = _refreshes(client)
        client.set_trace(types.SetTraceParams(value=types.TraceValue.Messages))
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        whole = types.Range(types.Position(0, 0), types.Position(len(LINES), 0))
        hover_off = await _hover(client, uri, _at(10, "loss"))
        hints_off = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
        analysed_off = [t.message for t in traces if uri in t.message and t.message.startswith("analysed")]
        before = dict(refreshes)
        client.set_configuration({"gradguard": {"lens": {"hover": True, "inlayHints": True}}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        # No edit: the new settings make the server analyse the open document again, recording.
        await wait_until(lambda: any("values recorded for the lens" in t.message for t in traces if uri in t.message),
                         "an analysis recording the lens's values")
        hover_on = await _hover(client, uri, _at(10, "loss"))
        hints_on = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
    assert analysed_off and all("no values recorded (the lens is off)" in m for m in analysed_off), analysed_off
    assert hover_off is None and not hints_off
    assert "cut by `.numpy()`" in hover_on.splitlines()[2]
    assert [h.label for h in hints_on] == [" ✗ model: cut by `.numpy()` at 10:22",
                                          " ✓ model, ✗ target_net: loss never uses it"]
    # the client is asked to fetch hints and lenses again once the settings changed
    assert refreshes["inlay"] > before["inlay"] and refreshes["lens"] > before["lens"]


async def test_hover_alone_still_records(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code", settings={"lens": {"inlayHints": False}}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        cut = await _hover(client, uri, _at(10, "loss"))
        whole = types.Range(types.Position(0, 0), types.Position(len(LINES), 0))
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
    assert "cut by `.numpy()`" in cut and not lenses and not hints


async def test_the_jedi_pass_refreshes_inlay_hints_and_code_lenses(tmp_path):
    import shutil
    from pathlib import Path

    from lsp_harness import wait_until

    root = tmp_path / "project"
    shutil.copytree(Path(__file__).parents[1] / "crossmodule" / "project", root)
    async with lsp_session(root, _refreshing_client(), initialization_options={"jedi": {"timeBudget": 30}}) as client:
        refreshes = _refreshes(client)
        uri = open_file(client, root / "bad_helper_to_numpy.py")
        lines = (root / "bad_helper_to_numpy.py").read_text().splitlines()
        whole = types.Range(types.Position(0, 0), types.Position(len(lines), 0))
        await wait_for_diagnostics(client, uri, 1)  # the fast pass: the helper is not followed
        fast = await client.text_document_inlay_hint_async(types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
        before = dict(refreshes)
        await wait_until(lambda: any(p.uri == uri and p.diagnostics for p in client.published), "the jedi pass", 60)
        await wait_until(lambda: refreshes["inlay"] > before["inlay"] and refreshes["lens"] > before["lens"],
                         "the refreshes after the jedi pass")
        refined = await client.text_document_inlay_hint_async(
            types.InlayHintParams(types.TextDocumentIdentifier(uri), whole))
    assert [h.label for h in fast] != [h.label for h in refined]
    [hint] = refined
    assert hint.label.startswith(" ✗ model: cut by") and "convert.py" in hint.tooltip, (hint.label, hint.tooltip)


async def test_clicking_a_code_lens_explains_its_sink(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:  # code lenses, no inlay hints
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_diagnostics(client, uri, 1)
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
        commands = [lens.command for lens in lenses]
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(commands[0].command, commands[0].arguments))
        quiet = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(commands[1].command, [*commands[1].arguments, {"show": False}]))
        shown = [m.message for m in client.messages if m.message.startswith("gradguard: `tape.gradient`")]
    assert [(c.command, list(c.arguments)) for c in commands] == [
        ("gradguard.explain", [uri, {"line": 11, "character": 12}]),
        ("gradguard.explain", [uri, {"line": 20, "character": 11}])]
    assert answer["ok"] is False and answer["warnings"] == []
    assert answer["tree"] == [
        "`tape.gradient` on line 12: its source gets no gradient",
        "└── ✗ model: cut by `.numpy()` at 10:22",
        "    ├── 10:9  prediction = model(x).numpy()   ← `model` starts the gradient here; cut by `.numpy()` at 10:22",
        "    ├── 11:9  loss = tf.reduce_mean((prediction - y) ** 2)",
        "    ├── 12:5  grads = tape.gradient(loss, model.trainable_variables)",
        "    └── GG101 at 10:22: `model(x)` (output of `model`) leaves TensorFlow through `.numpy()`; the loss given "
        "to `tape.gradient` on line 12 gets no gradient for `model.trainable_variables`"]
    assert shown == ["gradguard: " + "\n".join(answer["tree"])]  # clients drop a command's result: shown too
    assert quiet["tree"][:2] == ["`tape.gradient` on line 21: 1 of 2 sources get a gradient", "├── ✓ model"]
    assert quiet["tree"][-2] == "└── ✗ target_net: loss never uses it"
    assert len(shown) == 1  # {"show": false}: the answer alone
