"""End-to-end harness: the real server in a subprocess, driven over stdio by pytest-lsp's client.

    async with lsp_session(tmp_path, "neovim@v0.7.0") as client:
        uri = open_file(client, tmp_path / "train.py", SOURCE)
        published = await wait_for_diagnostics(client, uri)

`capabilities` names a client whose recorded capabilities pytest-lsp ships (VS Code 1.65, Neovim
0.6–0.11, Emacs 29 Eglot) or is a `ClientCapabilities` built by the test. Every notification
`textDocument/publishDiagnostics` is kept in `client.published`, so tests can wait for the one of a
given document version.
"""
from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

SERVER_COMMAND = [sys.executable, "-m", "gradguard.server", "--log-level", "debug"]
TIMEOUT = 30.0  # seconds: the first analysis in a fresh process imports the rules


@contextlib.asynccontextmanager
async def lsp_session(
    root: Path | None,
    capabilities: str | types.ClientCapabilities = "visual-studio-code",
    *,
    settings: dict | None = None,
    initialization_options: object = None,
    folders: list[Path] | None = None,
    server_command: list[str] | None = None,
) -> AsyncIterator[LanguageClient]:
    """A started, initialised server; shut down (and checked to exit) at the end."""
    config = ClientServerConfig(server_command=server_command or SERVER_COMMAND, client_factory=_recording_client)
    client = await config.start()
    if settings is not None:
        client.set_configuration({"gradguard": settings})
    caps = client_capabilities(capabilities) if isinstance(capabilities, str) else capabilities
    folders = folders if folders is not None else ([root] if root else [])
    await client.initialize_session(types.InitializeParams(
        capabilities=caps,
        root_uri=from_fs_path(str(root)) if root else None,
        workspace_folders=[types.WorkspaceFolder(from_fs_path(str(f)), f.name) for f in folders] or None,
        initialization_options=initialization_options,
        client_info=types.ClientInfo("pytest-lsp"),
    ))
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        await client.stop()


def _recording_client() -> LanguageClient:
    """pytest-lsp's client, keeping every PublishDiagnosticsParams (with its version) in order."""
    client = make_test_lsp_client()
    client.published = []

    def record(params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    client.protocol.fm._features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    return client


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    """didOpen for `path` with `text` (written to disk too when given), returns its URI."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    else:
        path.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))
    return uri


async def wait_for_diagnostics(client: LanguageClient, uri: str, version: int | None = None,
                               timeout: float = TIMEOUT) -> types.PublishDiagnosticsParams:
    """The first diagnostics published for `uri` (at `version`, when given) since the session began."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in client.published:
            if params.uri == uri and (version is None or params.version == version):
                return params
        await asyncio.sleep(0.01)
    seen = [(p.uri, p.version, len(p.diagnostics)) for p in client.published]
    raise AssertionError(f"no diagnostics for {uri} version {version} within {timeout} s; got {seen}")


async def wait_until(condition, what: str, timeout: float = TIMEOUT) -> None:
    """Wait until `condition()` holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def change_document(client: LanguageClient, uri: str, version: int, start: tuple[int, int],
                    end: tuple[int, int], text: str) -> None:
    """One incremental didChange replacing the range (line, character) start..end by `text`."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(*start), types.Position(*end)), text=text)],
    ))


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to `text`, as an editor would."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text) or [""]

    def offset(position: types.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        before = sum(len(line) for line in lines[:position.line])
        units = 0
        for index, char in enumerate(lines[position.line]):
            if units >= position.character:
                return before + index
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(lines[position.line].rstrip("\r\n"))

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """The text edits a WorkspaceEdit makes to `uri`, whichever form it uses."""
    if edit.document_changes:
        return [e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits]
    return list((edit.changes or {}).get(uri, []))
