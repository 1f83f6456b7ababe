"""Code actions end to end: quick fixes in order, unsafe marking, "Ignore", fix-all, resolve."""
from __future__ import annotations

import asyncio

from lsprotocol import types

from gradguard.rules import analyze
from lsp_harness import apply_text_edits, edits_for, lsp_session, open_file, wait_for_diagnostics

ROUNDED = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.ones((2, 3))
with tf.GradientTape() as tape:
    y = np.round(model(x))
    loss = tf.reduce_mean(y)
grads = tape.gradient(loss, model.trainable_variables)
'''

# GG306 (safe fix: tape.watch) and GG101 (unsafe fix: drop .numpy()) in one file.
SAFE_AND_UNSAFE = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = x * x
dy_dx = tape.gradient(y, x)

with tf.GradientTape() as tape2:
    loss = tf.reduce_mean(model(x).numpy())
grads = tape2.gradient(loss, model.trainable_variables)
'''


async def _actions(client, uri, diagnostic=None, only=None) -> list[types.CodeAction]:
    diagnostics = [diagnostic] if diagnostic else []
    range_ = diagnostic.range if diagnostic else types.Range(types.Position(0, 0), types.Position(0, 0))
    return list(await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri), range=range_,
        context=types.CodeActionContext(diagnostics=diagnostics, only=only),
    )) or [])


async def _open(client, tmp_path, text, name="train.py"):
    uri = open_file(client, tmp_path / name, text)
    published = await wait_for_diagnostics(client, uri, 1)
    return uri, list(published.diagnostics)


async def test_rounding_offers_the_straight_through_estimator_first_then_the_honest_swap_then_ignore(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        actions = await _actions(client, uri, diagnostics[0])
    titles = [a.title for a in actions]
    assert "straight-through" in titles[0] and actions[0].is_preferred
    assert "tf.round" in titles[1] and "None" in titles[1] and not actions[1].is_preferred
    assert titles[2] == "gradguard: Ignore GG102 for this line"
    assert all("(unsafe fix)" in title for title in titles[:2])
    assert all(a.kind == types.CodeActionKind.QuickFix and a.edit is not None for a in actions[:3])


async def test_quick_fix_edit_carries_the_document_version(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        actions = await _actions(client, uri, diagnostics[0])
    change = actions[0].edit.document_changes[0]
    assert change.text_document.uri == uri and change.text_document.version == 1
    fixed = apply_text_edits(ROUNDED, list(change.edits))
    assert "tf.stop_gradient(tf.round(" in fixed and [d.code for d in analyze(fixed)] == []


async def test_clients_without_document_changes_get_a_changes_map(tmp_path):
    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        actions = await _actions(client, uri, diagnostics[0])
    assert actions[0].edit.document_changes is None and uri in actions[0].edit.changes


async def test_a_diagnostic_sent_back_without_data_gets_its_fixes_recomputed(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        bare = types.Diagnostic(range=diagnostics[0].range, message=diagnostics[0].message,
                                code=diagnostics[0].code, source="gradguard")
        actions = await _actions(client, uri, bare)
    assert [a.title for a in actions] == [a.title for a in await _titles_with_data(tmp_path)]


async def _titles_with_data(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED, "again.py")
        return await _actions(client, uri, diagnostics[0])


async def test_ignore_action_adds_the_suppression_comment_and_silences_the_line(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        ignore = [a for a in await _actions(client, uri, diagnostics[0]) if a.title.startswith("gradguard: Ignore")][0]
    text = apply_text_edits(ROUNDED, edits_for(ignore.edit, uri))
    assert "    y = np.round(model(x))  # gradguard: ignore[GG102]\n" in text
    assert analyze(text) == []


async def test_fix_all_applies_safe_fixes_only(tmp_path):
    assert {d.code for d in analyze(SAFE_AND_UNSAFE)} == {"GG101", "GG306"}
    async with lsp_session(tmp_path, "emacs") as client:  # Eglot never resolves: the edit comes inline
        uri, _ = await _open(client, tmp_path, SAFE_AND_UNSAFE)
        actions = await _actions(client, uri, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.gradguard"]
    fixed = apply_text_edits(SAFE_AND_UNSAFE, edits_for(actions[0].edit, uri))
    assert "tape.watch(x)" in fixed
    assert [d.code for d in analyze(fixed)] == ["GG101"]  # the unsafe fix is left to the user


async def test_fix_all_is_resolved_lazily_for_clients_that_resolve_edits(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, _ = await _open(client, tmp_path, SAFE_AND_UNSAFE)
        action = (await _actions(client, uri, only=["source.fixAll"]))[0]
        assert action.edit is None
        resolved = await client.code_action_resolve_async(action)
    fixed = apply_text_edits(SAFE_AND_UNSAFE, edits_for(resolved.edit, uri))
    assert "tape.watch(x)" in fixed


async def test_quick_fix_kinds_are_filtered_by_only(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, SAFE_AND_UNSAFE)
        quickfixes = await _actions(client, uri, diagnostics[0], only=[types.CodeActionKind.QuickFix])
        sources = await _actions(client, uri, diagnostics[0], only=[types.CodeActionKind.Source])
    assert quickfixes and all(a.kind == types.CodeActionKind.QuickFix for a in quickfixes)
    assert [a.kind for a in sources] == ["source.fixAll.gradguard"]


async def test_no_fix_all_without_a_safe_fix(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, _ = await _open(client, tmp_path, ROUNDED)
        actions = await _actions(client, uri, only=["source.fixAll"])
    assert actions == []


async def test_fix_all_command_sends_workspace_apply_edit(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        applied: list[types.ApplyWorkspaceEditParams] = []

        @client.feature(types.WORKSPACE_APPLY_EDIT)
        def _apply(params: types.ApplyWorkspaceEditParams):
            applied.append(params)
            return types.ApplyWorkspaceEditResult(applied=True)

        uri, _ = await _open(client, tmp_path, SAFE_AND_UNSAFE)
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="gradguard.applyFixAll", arguments=[uri]))
        for _ in range(100):
            if applied:
                break
            await asyncio.sleep(0.01)
    assert applied and "tape.watch(x)" in apply_text_edits(SAFE_AND_UNSAFE, edits_for(applied[0].edit, uri))


async def test_mangled_data_sent_back_gets_the_fixes_recomputed(tmp_path):
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri, diagnostics = await _open(client, tmp_path, ROUNDED)
        good = await _actions(client, uri, diagnostics[0])
        mangled = types.Diagnostic(range=diagnostics[0].range, message=diagnostics[0].message,
                                   code=diagnostics[0].code, source="gradguard",
                                   data={"fixes": [{"title": "x", "edits": [{"uri": uri, "version": 1, "range": 7}]}]})
        actions = await _actions(client, uri, mangled)
    assert [a.title for a in actions] == [a.title for a in good]
