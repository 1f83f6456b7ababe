"""Configuration over LSP: `[tool.gradguard]` files, the editor's `gradguard` settings, and their problems.

TRAIN has three findings: GG101 (error, `.numpy()` inside the tape), GG309 (warning, `if grads:`)
and GG307 (error, a non-persistent tape asked twice; its fix is the only safe one).
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities

from lsp_harness import TIMEOUT, change_document, lsp_session, open_file, wait_for_diagnostics, wait_until

TRAIN = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-3)


def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x).numpy()
        loss = tf.reduce_mean(tf.square(y - pred))
    grads = tape.gradient(loss, model.trainable_variables)
    if grads:
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


def two_losses(x, y):
    with tf.GradientTape() as tape:
        out = model(x)
        first = tf.reduce_mean(out)
        second = tf.reduce_mean(tf.square(out - y))
    return tape.gradient(first, model.trainable_variables), tape.gradient(second, model.trainable_variables)
"""
ALL = {"GG101", "GG307", "GG309"}
# 5,000 lines of correct training steps: a document whose analysis takes a while.
LONG_TAIL = "".join(
    f"\n\ndef step_{i}(x, y):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x) - y)\n"
    f"    return tape.gradient(loss, model.trainable_variables)\n"
    for i in range(1000))


def codes(params: types.PublishDiagnosticsParams) -> set[str]:
    return {d.code for d in params.diagnostics}


def severity_of(params: types.PublishDiagnosticsParams, code: str) -> types.DiagnosticSeverity:
    return next(d.severity for d in params.diagnostics if d.code == code)


async def wait_for_publish(client: LanguageClient, uri: str, condition, since: int = 0,
                           timeout: float = TIMEOUT) -> types.PublishDiagnosticsParams:
    """The first diagnostics for `uri` (from index `since` of client.published) satisfying `condition`.

    Waiting for a condition rather than the next publication: the server may analyse a document
    once with the settings it has before `workspace/configuration` is answered.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in client.published[since:]:
            if params.uri == uri and condition(params):
                return params
        await asyncio.sleep(0.01)
    seen = [(p.version, sorted(codes(p))) for p in client.published if p.uri == uri]
    raise AssertionError(f"no matching diagnostics for {uri} within {timeout} s; got {seen}")


async def wait_for_codes(client: LanguageClient, uri: str, expected: set[str], since: int = 0):
    return await wait_for_publish(client, uri, lambda p: codes(p) == expected, since)


def write_pyproject(folder: Path, body: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(body, encoding="utf-8")
    return path


def did_change_configuration(client: LanguageClient, settings: object = None) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))


def no_configuration_capabilities() -> types.ClientCapabilities:
    """VS Code's capabilities without `workspace/configuration`: settings come pushed."""
    caps = client_capabilities("visual-studio-code")
    caps.workspace.configuration = False
    return caps


def showed(client: LanguageClient, *words: str) -> list[types.ShowMessageParams]:
    return [m for m in client.messages if all(word in m.message for word in words)]


# ---------------------------------------------------------------------------------------------
# [tool.gradguard]


async def test_pyproject_ignore_in_workspace_root_is_honoured(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG309"]\n')
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_codes(client, uri, {"GG101", "GG307"})
    assert published.version == 1


async def test_pyproject_in_parent_folder_applies_to_nested_files(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard]\nselect = ["GG3"]\n')
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "pkg" / "sub" / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG307", "GG309"})


async def test_pyproject_severity_is_used(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard.severity]\nGG101 = "warning"\n')
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(
            client, uri, lambda p: "GG101" in codes(p) and severity_of(p, "GG101") == types.DiagnosticSeverity.Warning)
    assert severity_of(published, "GG307") == types.DiagnosticSeverity.Error


# ---------------------------------------------------------------------------------------------
# Editor settings over the file


async def test_client_select_replaces_the_pyproject_selection(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard]\nselect = ["GG3"]\n')
    async with lsp_session(tmp_path, settings={"select": ["GG1"]}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG101"})


async def test_client_ignore_adds_to_the_pyproject_ignore(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG309"]\n')
    async with lsp_session(tmp_path, settings={"ignore": ["GG307"]}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG101"})


async def test_client_severity_info_gives_information(tmp_path):
    async with lsp_session(tmp_path, settings={"severity": {"GG101": "info"}}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(
            client, uri, lambda p: codes(p) == ALL and severity_of(p, "GG101") == types.DiagnosticSeverity.Information)
    assert severity_of(published, "GG307") == types.DiagnosticSeverity.Error
    assert severity_of(published, "GG309") == types.DiagnosticSeverity.Warning


async def test_client_severity_overrides_pyproject_severity(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard.severity]\nGG101 = "warning"\nGG307 = "warning"\n')
    async with lsp_session(tmp_path, settings={"severity": {"GG101": "Information"}}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(client, uri, lambda p: "GG101" in codes(p)
                                           and severity_of(p, "GG101") == types.DiagnosticSeverity.Information)
    assert severity_of(published, "GG307") == types.DiagnosticSeverity.Warning  # the file's, not overridden


# ---------------------------------------------------------------------------------------------
# enable


async def test_enable_false_publishes_nothing_until_enabled(tmp_path):
    """Disabled everywhere but in folder `on` (ignoring GG309), which serves as the barrier.

    The settings are in initializationOptions too, so there is no moment when the server has other
    settings. Once `on` shows its settings applied, every document opened before it has been
    through `didOpen`; the disabled one must not have been published.
    """
    on = tmp_path / "on"
    on.mkdir()
    disabled = {"enable": False}
    async with lsp_session(tmp_path, settings=disabled, initialization_options=disabled, folders=[on]) as client:
        # Set before this test first awaits, so before the client can answer workspace/configuration.
        client.set_configuration({"gradguard": {"ignore": ["GG309"]}}, scope_uri=from_fs_path(str(on)))
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        on_uri = open_file(client, on / "train.py", TRAIN)
        await wait_for_codes(client, on_uri, {"GG101", "GG307"})
        published_while_disabled = [p for p in client.published if p.uri == uri]
        client.set_configuration({"gradguard": {}})
        did_change_configuration(client)
        await wait_for_codes(client, uri, ALL)
    assert published_while_disabled == []


async def test_disabling_clears_published_diagnostics(tmp_path):
    async with lsp_session(tmp_path, settings={}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, ALL)
        since = len(client.published)
        client.set_configuration({"gradguard": {"enable": False}})
        did_change_configuration(client)
        await wait_for_publish(client, uri, lambda p: not p.diagnostics, since)


async def test_disabled_folder_has_no_diagnostics_even_for_a_document_opened_at_startup(tmp_path):
    """A document opened right after `initialized`, before `workspace/configuration` is answered.

    Folder `off` is disabled by its scoped settings; folder `on` (ignoring GG309) is the barrier:
    once `on` shows its settings applied, the settings are loaded and any analysis of `off`
    started before has been delivered (there is one analysis worker). The `off` document is long
    so that its analysis is still queued or running when the settings arrive.
    """
    off, on = tmp_path / "off", tmp_path / "on"
    off.mkdir()
    on.mkdir()
    async with lsp_session(tmp_path, folders=[off, on]) as client:
        # Set before this test first awaits, so before the client can answer workspace/configuration.
        client.set_configuration({"gradguard": {"enable": False}}, scope_uri=from_fs_path(str(off)))
        client.set_configuration({"gradguard": {"ignore": ["GG309"]}}, scope_uri=from_fs_path(str(on)))
        off_uri = open_file(client, off / "train.py", TRAIN + LONG_TAIL)
        on_uri = open_file(client, on / "train.py", TRAIN)
        await wait_for_codes(client, on_uri, {"GG101", "GG307"})
        last = [p for p in client.published if p.uri == off_uri]
    assert not last or list(last[-1].diagnostics) == [], \
        f"disabled folder left diagnostics {[(p.version, sorted(codes(p))) for p in last]}"


# ---------------------------------------------------------------------------------------------
# Changes


async def test_did_change_configuration_republishes_with_new_settings(tmp_path):
    async with lsp_session(tmp_path, settings={}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, ALL)
        since = len(client.published)
        client.set_configuration({"gradguard": {"ignore": ["GG101"]}})
        did_change_configuration(client)
        published = await wait_for_codes(client, uri, {"GG307", "GG309"}, since)
    assert published.version == 1


async def test_pyproject_edit_and_did_change_watched_files_republishes(tmp_path):
    pyproject = write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG309"]\n')
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG101", "GG307"})
        since = len(client.published)
        write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG101", "GG307"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(pyproject)), type=types.FileChangeType.Changed)]))
        await wait_for_codes(client, uri, {"GG309"}, since)


async def test_pyproject_created_after_start_is_picked_up_on_watched_file_event(tmp_path):
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, ALL)
        since = len(client.published)
        pyproject = write_pyproject(tmp_path, '[tool.gradguard]\nselect = ["GG30"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(pyproject)), type=types.FileChangeType.Created)]))
        await wait_for_codes(client, uri, {"GG307", "GG309"}, since)


# ---------------------------------------------------------------------------------------------
# Multi-root


async def test_two_folders_use_their_own_pyproject(tmp_path):
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    alpha.mkdir()
    beta.mkdir()
    write_pyproject(alpha, '[tool.gradguard]\nignore = ["GG309"]\n')
    write_pyproject(beta, '[tool.gradguard]\nselect = ["GG309"]\n')
    async with lsp_session(tmp_path, folders=[alpha, beta]) as client:
        alpha_uri = open_file(client, alpha / "train.py", TRAIN)
        beta_uri = open_file(client, beta / "train.py", TRAIN)
        await wait_for_codes(client, alpha_uri, {"GG101", "GG307"})
        await wait_for_codes(client, beta_uri, {"GG309"})


async def test_two_folders_use_their_own_scoped_settings(tmp_path):
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    alpha.mkdir()
    beta.mkdir()
    async with lsp_session(tmp_path, folders=[alpha, beta]) as client:
        # Set before this test first awaits, so before the client can answer workspace/configuration.
        client.set_configuration({"gradguard": {"select": ["GG1"]}}, scope_uri=from_fs_path(str(alpha)))
        client.set_configuration({"gradguard": {"ignore": ["GG1"], "severity": {"GG307": "info"}}},
                                 scope_uri=from_fs_path(str(beta)))
        alpha_uri = open_file(client, alpha / "train.py", TRAIN)
        beta_uri = open_file(client, beta / "train.py", TRAIN)
        await wait_for_codes(client, alpha_uri, {"GG101"})
        beta_published = await wait_for_codes(client, beta_uri, {"GG307", "GG309"})
    assert severity_of(beta_published, "GG307") == types.DiagnosticSeverity.Information


# ---------------------------------------------------------------------------------------------
# Problems: reported once, defaults used


@pytest.mark.parametrize("content, named", [
    ('[tool.gradguard]\nignore = ["GG309"\n', "syntax"),   # a TOML syntax error
    ('[tool.gradguard]\nselekt = ["GG1"]\n', "selekt"),    # an unknown key, named
], ids=["syntax error", "unknown key"])
async def test_a_broken_pyproject_is_shown_once_and_defaults_are_used(tmp_path, content, named):
    pyproject = write_pyproject(tmp_path, content)
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, ALL)  # the default configuration: every rule
        # Another analysis of the same file must not repeat the message.
        change_document(client, uri, 2, (0, 0), (0, 0), "# edited\n")
        await wait_for_diagnostics(client, uri, version=2)
    about_file = showed(client, str(pyproject))
    assert len(about_file) == 1, [m.message for m in client.messages]
    assert named in about_file[0].message.lower()
    assert about_file[0].type in (types.MessageType.Warning, types.MessageType.Error)


async def test_pyproject_fixed_after_error_is_used_again(tmp_path):
    pyproject = write_pyproject(tmp_path, '[tool.gradguard]\nignore = "GG309"\n')  # not a list
    async with lsp_session(tmp_path) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, ALL)  # the default configuration meanwhile
        assert showed(client, str(pyproject), "ignore")
        since = len(client.published)
        write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG309"]\n')
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(pyproject)), type=types.FileChangeType.Changed)]))
        await wait_for_codes(client, uri, {"GG101", "GG307"}, since)


async def test_broken_client_settings_are_shown_and_defaults_used(tmp_path):
    settings = {"select": ["XX9"], "jedi": {"timeBudget": "fast"}}
    async with lsp_session(tmp_path, settings=settings) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_codes(client, uri, ALL)
        await wait_until(lambda: showed(client, "select", "XX9") and showed(client, "timeBudget", "fast"),
                         "a message about each broken setting")
        change_document(client, uri, 2, (0, 0), (0, 0), "# edited\n")
        await wait_for_diagnostics(client, uri, version=2)
    messages = [m.message for m in client.messages]
    assert len(showed(client, "select", "XX9")) == 1, messages
    assert len(showed(client, "timeBudget", "fast")) == 1, messages
    assert codes(published) == ALL  # the default selection, not an empty one


async def test_settings_of_the_wrong_type_are_shown_and_defaults_used(tmp_path):
    async with lsp_session(tmp_path, settings={"enable": "yes", "severity": {"GG101": "loud"}}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_codes(client, uri, ALL)
        await wait_until(lambda: showed(client, "enable") and showed(client, "loud"),
                         "a message about each broken setting")
    assert severity_of(published, "GG101") == types.DiagnosticSeverity.Error


# ---------------------------------------------------------------------------------------------
# Code action settings

# Severity GG309 = info is a visible sign that the settings have been applied (code actions are
# computed with the settings the server has when the request arrives).
APPLIED = {"severity": {"GG309": "info"}}


def settings_applied(params: types.PublishDiagnosticsParams) -> bool:
    return "GG309" in codes(params) and severity_of(params, "GG309") == types.DiagnosticSeverity.Information


async def _actions_for(client: LanguageClient, uri: str, published, code: str, only=None):
    diagnostic = next(d for d in published.diagnostics if d.code == code)
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri),
        range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
    ))


async def test_ignore_actions_are_offered_by_default(tmp_path):
    async with lsp_session(tmp_path, settings=APPLIED) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(client, uri, settings_applied)
        actions = await _actions_for(client, uri, published, "GG101")
    assert any("Ignore GG101" in a.title for a in actions), [a.title for a in actions]


async def test_ignore_actions_disappear_with_disable_rule_comment_off(tmp_path):
    settings = {**APPLIED, "codeAction": {"disableRuleComment": {"enable": False}}}
    async with lsp_session(tmp_path, settings=settings) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(client, uri, settings_applied)
        actions = await _actions_for(client, uri, published, "GG101")
    titles = [a.title for a in actions]
    assert not any("Ignore" in title for title in titles), titles
    assert any("Remove `.numpy()`" in title for title in titles), titles  # the real fix stays


async def test_fix_all_is_offered_by_default(tmp_path):
    async with lsp_session(tmp_path, settings=APPLIED) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(client, uri, settings_applied)
        actions = await _actions_for(client, uri, published, "GG307", only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.gradguard"]


async def test_fix_all_disappears_with_fix_all_false(tmp_path):
    async with lsp_session(tmp_path, settings={**APPLIED, "fixAll": False}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_publish(client, uri, settings_applied)
        fix_all = await _actions_for(client, uri, published, "GG307", only=[types.CodeActionKind.SourceFixAll])
        everything = await _actions_for(client, uri, published, "GG307")
    assert not fix_all
    assert all(a.kind != "source.fixAll.gradguard" for a in everything)
    assert any(a.kind == types.CodeActionKind.QuickFix for a in everything)  # quick fixes stay


# ---------------------------------------------------------------------------------------------
# Clients without workspace/configuration


async def test_initialization_options_are_honoured_without_workspace_configuration(tmp_path):
    options = {"ignore": ["GG101"], "severity": {"GG309": "info"}}
    async with lsp_session(tmp_path, no_configuration_capabilities(), initialization_options=options) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        published = await wait_for_codes(client, uri, {"GG307", "GG309"})
    assert severity_of(published, "GG309") == types.DiagnosticSeverity.Information


async def test_initialization_options_nested_under_section_are_honoured(tmp_path):
    options = {"gradguard": {"select": ["GG30"]}}
    async with lsp_session(tmp_path, no_configuration_capabilities(), initialization_options=options) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG307", "GG309"})


async def test_pushed_settings_in_did_change_configuration_replace_initialization_options(tmp_path):
    async with lsp_session(tmp_path, no_configuration_capabilities(),
                           initialization_options={"ignore": ["GG101"]}) as client:
        uri = open_file(client, tmp_path / "train.py", TRAIN)
        await wait_for_codes(client, uri, {"GG307", "GG309"})
        since = len(client.published)
        did_change_configuration(client, {"gradguard": {"ignore": ["GG307"]}})
        await wait_for_codes(client, uri, {"GG101", "GG309"}, since)
