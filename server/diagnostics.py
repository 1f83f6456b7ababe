"""Pull diagnostics, for the clients that announce them (the others get `GradguardServer.push`).

`textDocument/diagnostic` answers with the result for the document's current text, or "unchanged".
`workspace/diagnostic` reports every Python file of the workspace folders, with work-done progress.
Open documents are left to document diagnostics (their text in the editor is newer than the file).
Each file's report carries a result id made of its modification time, size and the settings
generation, so a client asking again gets "unchanged" for what did not change; when nothing did,
the request waits for the next change (the long poll VS Code expects) until it is cancelled.
"""
from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from gradguard.rules.project.files import Walk
from gradguard.rules.project.config import ConfigError, Configs

from . import analysis
from .analysis import Result
from .documents import TextDocument
from .settings import SECTION
from .state import GradguardServer


def register_pull_diagnostics(ls: GradguardServer) -> None:
    """`initialize` calls this only for a client that pulls: one that does not is never offered it."""
    options = types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=False, workspace_diagnostics=True)
    ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)(pull_document_diagnostics)
    ls.feature(types.WORKSPACE_DIAGNOSTIC)(pull_workspace_diagnostics)


# -- textDocument/diagnostic ---------------------------------------------------------------------


async def pull_document_diagnostics(ls: GradguardServer, params: types.DocumentDiagnosticParams):
    uri = params.text_document.uri
    target = ls.store.target_of(uri)
    if not ls.settings_for(target).enable:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    result = await ls.current_result(target)
    items = result.by_uri.get(uri, []) if result is not None else []
    result_id = _result_id(result, uri)
    if result_id is not None and params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


def _result_id(result: Result | None, uri: str) -> str | None:
    if result is None:
        return None
    return f"{result.snapshot.versions}:{hash(tuple(str(d) for d in result.by_uri.get(uri, [])))}"


# -- workspace/diagnostic ------------------------------------------------------------------------


async def pull_workspace_diagnostics(ls: GradguardServer, params: types.WorkspaceDiagnosticParams):
    previous = {item.uri: item.value for item in params.previous_result_ids}
    while True:
        generation = ls.generation
        files = await asyncio.get_running_loop().run_in_executor(None, _workspace_files, ls)
        progress = await _Progress.start(ls, params.work_done_token, len(files))
        try:
            items = await _reports(ls, files, previous, progress)
        finally:
            progress.end(len(files))
        changed = any(isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) for item in items)
        if changed or not previous or generation != ls.generation:
            return types.WorkspaceDiagnosticReport(items=items)
        await ls.workspace_changed.wait()  # nothing new: hold the request until something changes
        ls.workspace_changed.clear()


def _workspace_files(ls: GradguardServer) -> list[Path]:
    folders = [to_fs_path(f.uri) for f in (ls.workspace.folders or {}).values() if f.uri.startswith("file:")]
    if not folders and ls.workspace.root_path:
        folders = [ls.workspace.root_path]
    files: list[Path] = []
    for folder in filter(None, folders):
        # Each subfolder's own pyproject.toml says what it excludes, as `gradguard check` walks it.
        walk = Walk(Configs(), lambda message: ls.log_message(message, types.MessageType.Warning))
        try:
            walk.add_argument(folder)
        except ConfigError as error:
            ls.log_message(f"workspace diagnostics: {error}", types.MessageType.Warning)
            continue
        files.extend(path for _, path in walk.files if path.suffix == ".py")
    return files


async def _reports(ls: GradguardServer, files: list[Path], previous: dict[str, str], progress: "_Progress"):
    loop = asyncio.get_running_loop()
    items = []
    for index, path in enumerate(files):
        progress.report(index, path)
        uri = from_fs_path(str(path))
        if uri is None or ls.store.get(uri) is not None:
            continue
        try:
            info = path.stat()
        except OSError:
            continue
        result_id = f"{info.st_mtime_ns}-{info.st_size}-{ls.generation}"
        if previous.get(uri) == result_id:
            items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=None))
            continue
        diagnostics = await loop.run_in_executor(None, _diagnose_file, ls, uri, path)
        items.append(types.WorkspaceFullDocumentDiagnosticReport(
            uri=uri, items=diagnostics, version=None, result_id=result_id))
    return items


def _diagnose_file(ls: GradguardServer, uri: str, path: Path) -> list[types.Diagnostic]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        ls.log_message(f"workspace diagnostics: cannot read {path}: {error}", types.MessageType.Warning)
        return []
    document = TextDocument(uri, text)
    snap = analysis.snapshot(uri, str(path), [document], False, ls.config_for(uri, str(path)), ls.encoding,
                             related=ls.accepts_related_information)
    return analysis.analyze(snap).by_uri[uri]


class _Progress:
    """`$/progress` for one run: the client's token, or one the server creates when it may."""

    def __init__(self, ls: GradguardServer, token: types.ProgressToken | None, total: int):
        self.ls, self.token, self.total = ls, token, total

    @classmethod
    async def start(cls, ls: GradguardServer, token, total: int) -> "_Progress":
        if token is None and ls.supports("window", "work_done_progress"):
            token = f"gradguard-workspace-{uuid.uuid4()}"
            try:
                await ls.work_done_progress.create_async(token)
            except Exception:
                token = None
        progress = cls(ls, token, total)
        if token is not None:
            ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                title="gradguard", message=f"checking {total} files", percentage=0, cancellable=False))
        return progress

    def report(self, index: int, path: Path) -> None:
        if self.token is not None:
            total = max(self.total, 1)
            self.ls.work_done_progress.report(self.token, types.WorkDoneProgressReport(
                message=f"{index + 1}/{total} {path.name}", percentage=int(100 * index / total)))

    def end(self, total: int) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=f"checked {total} files"))
