"""Pull diagnostics (textDocument/diagnostic, workspace/diagnostic), $/progress, $/logTrace, logMessage.

A client that announces `textDocument.diagnostic` gets pull diagnostics only: the server
registers both pull requests at initialize and never pushes.
"""
from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities

from lsp_harness import TIMEOUT, change_document, lsp_session, open_file, wait_until

BAD = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])


def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x).numpy()
        loss = tf.reduce_mean(tf.square(y - pred))
    return tape.gradient(loss, model.trainable_variables)
"""
CLEAN = BAD.replace("model(x).numpy()", "model(x)")
NUMPY_LINE = 9  # 0-based line of `pred = model(x).numpy()`
HELD = 2.0      # seconds a held workspace/diagnostic is given to show it is really held


def pull_capabilities() -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(
        dynamic_registration=False, related_document_support=False)
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


async def pull(client: LanguageClient, uri: str, previous: str | None = None):
    return await asyncio.wait_for(client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri), identifier="gradguard", previous_result_id=previous)),
        TIMEOUT)


def workspace_request(client: LanguageClient, previous: dict[str, str] | None = None,
                      token: str | None = None, msg_id: str | None = None):
    """workspace/diagnostic as a future (it may be held by the server)."""
    params = types.WorkspaceDiagnosticParams(
        identifier="gradguard",
        previous_result_ids=[types.PreviousResultId(uri=uri, value=value) for uri, value in (previous or {}).items()],
        work_done_token=token,
    )
    return client.protocol.send_request_async(types.WORKSPACE_DIAGNOSTIC, params, msg_id=msg_id)


async def held_request(client: LanguageClient, msg_id: str | None = None):
    """A workspace/diagnostic the server holds, and the result ids it was sent with.

    Asks as VS Code does, each time with the result ids of the last answer: a request may come
    back at once while the server starts (its settings arrive during the first one).
    """
    first = await asyncio.wait_for(workspace_request(client), TIMEOUT)
    previous = {item.uri: item.result_id for item in first.items}
    for _ in range(5):
        request = asyncio.ensure_future(workspace_request(client, previous, msg_id=msg_id))
        done, _ = await asyncio.wait([request], timeout=HELD)
        if not done:
            return request, previous
        previous.update({item.uri: item.result_id for item in request.result().items})
    raise AssertionError(f"workspace/diagnostic never held with unchanged result ids {previous}")


def codes(items) -> list[str]:
    return sorted(d.code for d in items)


def by_uri(report: types.WorkspaceDiagnosticReport) -> dict[str, object]:
    return {item.uri: item for item in report.items}


def make_workspace(root: Path) -> dict[str, Path]:
    """Three .py files to report, and files workspace diagnostics must leave alone."""
    files = {"bad": root / "bad.py", "clean": root / "clean.py", "nested": root / "pkg" / "nested.py"}
    (root / "pkg").mkdir()
    files["bad"].write_text(BAD, encoding="utf-8")
    files["clean"].write_text(CLEAN, encoding="utf-8")
    files["nested"].write_text(BAD, encoding="utf-8")
    (root / "notes.txt").write_text(BAD, encoding="utf-8")
    (root / ".venv" / "lib").mkdir(parents=True)
    (root / ".venv" / "lib" / "site.py").write_text(BAD, encoding="utf-8")
    return files


def uri_of(path: Path) -> str:
    return from_fs_path(str(path))


# ---------------------------------------------------------------------------------------------
# textDocument/diagnostic


async def test_pull_client_gets_no_pushed_diagnostics(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        uri = open_file(client, tmp_path / "train.py", BAD)
        first = await pull(client, uri)
        change_document(client, uri, 2, (0, 0), (0, 0), "# edited\n")
        second = await pull(client, uri)
        # A pushed result is sent before the pulled one is answered: none may have come.
        assert client.published == []
    assert codes(first.items) == ["GG101"]
    assert codes(second.items) == ["GG101"]


async def test_document_diagnostic_returns_full_report_for_current_version(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        uri = open_file(client, tmp_path / "train.py", BAD)
        report = await pull(client, uri)
    assert report.kind == "full"
    assert report.result_id
    [diagnostic] = report.items
    assert diagnostic.code == "GG101"
    assert diagnostic.range.start == types.Position(NUMPY_LINE, 15)


async def test_document_diagnostic_with_previous_result_id_is_unchanged(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        uri = open_file(client, tmp_path / "train.py", BAD)
        first = await pull(client, uri)
        second = await pull(client, uri, previous=first.result_id)
    assert second.kind == "unchanged"
    assert second.result_id == first.result_id


async def test_document_diagnostic_after_did_change_reflects_the_edit(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        uri = open_file(client, tmp_path / "train.py", BAD)
        first = await pull(client, uri)
        # Remove `.numpy()` (columns 23..31 of the line): the break is gone.
        change_document(client, uri, 2, (NUMPY_LINE, 23), (NUMPY_LINE, 31), "")
        second = await pull(client, uri, previous=first.result_id)
        # Bring it back two lines lower.
        change_document(client, uri, 3, (0, 0), (0, 0), "# a\n# b\n")
        change_document(client, uri, 4, (NUMPY_LINE + 2, 23), (NUMPY_LINE + 2, 23), ".numpy()")
        third = await pull(client, uri, previous=second.result_id)
    assert codes(first.items) == ["GG101"]
    assert second.kind == "full" and second.result_id != first.result_id
    assert list(second.items) == []
    assert third.kind == "full"
    assert [d.range.start.line for d in third.items] == [NUMPY_LINE + 2]


async def test_document_diagnostic_for_unknown_document_is_an_empty_report(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        report = await pull(client, uri_of(tmp_path / "never_opened.py"))
    assert report.kind == "full"
    assert list(report.items) == []


# ---------------------------------------------------------------------------------------------
# workspace/diagnostic


async def test_workspace_diagnostic_reports_the_folders_python_files_but_not_open_ones(tmp_path):
    files = make_workspace(tmp_path)
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        opened = open_file(client, tmp_path / "opened.py", BAD)
        await pull(client, opened)  # open for sure before the workspace request
        report = await asyncio.wait_for(workspace_request(client), TIMEOUT)
    items = by_uri(report)
    assert set(items) == {uri_of(path) for path in files.values()}
    assert all(item.kind == "full" and item.result_id for item in items.values())
    assert codes(items[uri_of(files["bad"])].items) == ["GG101"]
    assert codes(items[uri_of(files["nested"])].items) == ["GG101"]
    assert list(items[uri_of(files["clean"])].items) == []


async def test_workspace_diagnostic_reports_progress_on_the_given_token(tmp_path):
    files = make_workspace(tmp_path)
    token = f"test-{uuid.uuid4()}"
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        client.progress_reports.setdefault(token, [])  # the client made this token itself
        await asyncio.wait_for(workspace_request(client, token=token), TIMEOUT)
        progress = list(client.progress_reports[token])
    kinds = [p.kind for p in progress]
    assert kinds[0] == "begin" and kinds[-1] == "end", kinds
    assert kinds.count("begin") == 1 and kinds.count("end") == 1, kinds
    assert kinds.count("report") >= 1, kinds
    percentages = [p.percentage for p in progress[1:-1] if p.percentage is not None]
    assert percentages == sorted(percentages) and all(0 <= p <= 100 for p in percentages)
    assert progress[0].title
    assert kinds.count("report") <= len(files)  # at most one report per file


async def test_workspace_diagnostic_with_previous_ids_is_held_until_a_saved_file_changes(tmp_path):
    files = make_workspace(tmp_path)
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        held, previous = await held_request(client)

        files["clean"].write_text(BAD + "\n# now broken\n", encoding="utf-8")
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri_of(files["clean"]))))
        second = await asyncio.wait_for(held, TIMEOUT)
    items = by_uri(second)
    changed = items[uri_of(files["clean"])]
    assert changed.kind == "full" and codes(changed.items) == ["GG101"]
    assert items[uri_of(files["bad"])].kind == "unchanged"


async def test_held_workspace_diagnostic_returns_after_did_change_watched_files(tmp_path):
    """A file changed on disk (not open, e.g. by `git checkout`) and reported by the client."""
    files = make_workspace(tmp_path)
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        held, previous = await held_request(client)

        files["bad"].write_text(CLEAN, encoding="utf-8")
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=uri_of(files["bad"]), type=types.FileChangeType.Changed)]))
        try:
            second = await asyncio.wait_for(asyncio.shield(held), 10)
        finally:
            held.cancel()
    changed = by_uri(second)[uri_of(files["bad"])]
    assert changed.kind == "full" and list(changed.items) == []


async def test_held_workspace_diagnostic_returns_after_settings_change(tmp_path):
    files = make_workspace(tmp_path)
    async with lsp_session(tmp_path, pull_capabilities(), settings={}) as client:
        held, previous = await held_request(client)

        client.set_configuration({"gradguard": {"ignore": ["GG101"]}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        second = await asyncio.wait_for(held, TIMEOUT)
    items = by_uri(second)
    assert all(item.kind == "full" for item in items.values())
    assert list(items[uri_of(files["bad"])].items) == []


async def test_held_workspace_diagnostic_can_be_cancelled(tmp_path):
    make_workspace(tmp_path)
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        msg_id = f"held-{uuid.uuid4()}"
        held, previous = await held_request(client, msg_id=msg_id)

        client.cancel_request(types.CancelParams(id=msg_id))
        with pytest.raises(JsonRpcRequestCancelled):
            await asyncio.wait_for(held, TIMEOUT)
        # The server is still answering.
        again = await asyncio.wait_for(workspace_request(client), TIMEOUT)
    assert {item.uri for item in again.items} == set(previous)


# ---------------------------------------------------------------------------------------------
# $/setTrace, $/logTrace, window/logMessage


def record_traces(client: LanguageClient) -> list[types.LogTraceParams]:
    traces: list[types.LogTraceParams] = []

    @client.feature(types.LOG_TRACE)
    def _trace(params: types.LogTraceParams) -> None:
        traces.append(params)

    return traces


async def test_set_trace_verbose_sends_log_trace_with_detail(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        traces = record_traces(client)
        client.set_trace(types.SetTraceParams(value=types.TraceValue.Verbose))
        uri = open_file(client, tmp_path / "train.py", BAD)
        await pull(client, uri)  # the trace of the analysis is sent before this answer
    about = [t for t in traces if uri in t.message]
    assert about, [t.message for t in traces]
    assert any(t.verbose and "GG101" in t.verbose for t in about), about


async def test_set_trace_messages_sends_log_trace_without_detail(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        traces = record_traces(client)
        client.set_trace(types.SetTraceParams(value=types.TraceValue.Messages))
        uri = open_file(client, tmp_path / "train.py", BAD)
        await pull(client, uri)
    about = [t for t in traces if uri in t.message]
    assert about, [t.message for t in traces]
    assert all(not t.verbose for t in about)


async def test_no_log_trace_without_set_trace(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        traces = record_traces(client)
        uri = open_file(client, tmp_path / "train.py", BAD)
        await pull(client, uri)
    assert traces == []


async def test_set_trace_off_stops_log_trace(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        traces = record_traces(client)
        # The server asks for a workspace diagnostic refresh once its settings are loaded: after
        # that no start-up analysis can still be tracing when the trace is switched off.
        await wait_until(lambda: client.diagnostic_refresh_count >= 1, "the start-up refresh")
        client.set_trace(types.SetTraceParams(value=types.TraceValue.Verbose))
        uri = open_file(client, tmp_path / "train.py", BAD)
        await pull(client, uri)
        assert traces
        client.set_trace(types.SetTraceParams(value=types.TraceValue.Off))
        # A round trip after the switch: the open's own analysis may still have been tracing when
        # the pull answered (under load it finishes later); once the server has read `Off`, nothing.
        await pull(client, uri)
        count = len(traces)
        change_document(client, uri, 2, (0, 0), (0, 0), "# edited\n")
        await pull(client, uri)
        assert len(traces) == count


async def test_log_messages_arrive(tmp_path):
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        uri = open_file(client, tmp_path / "train.py", BAD)
        await pull(client, uri)
        started = [m for m in client.log_messages if "started" in m.message]
    assert started, [m.message for m in client.log_messages]
    assert started[0].type == types.MessageType.Info
    assert "pull" in started[0].message
