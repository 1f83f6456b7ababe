"""The gradguard language server's LSP handlers, registered on `state.server`, and `start`."""
from __future__ import annotations

import logging

from lsprotocol import types

from gradguard.rules import __version__

from . import actions, analysis
from .analysis import Result
from .documents import Encoding
from .scheduler import Scheduler
from .settings import SECTION, parse_settings
from .state import GradguardServer, server
from .workspace import workspace_diagnostics

log = logging.getLogger("gradguard.server")
FIX_ALL_COMMAND = "gradguard.applyFixAll"


# ---------------------------------------------------------------------------------------------
# Lifecycle


@server.feature(types.INITIALIZE)
def initialize(ls: GradguardServer, params: types.InitializeParams) -> None:
    ls.encoding = Encoding(ls.workspace.position_encoding or "utf-16")
    ls.pushed_settings = params.initialization_options
    ls.folder_settings = {"": parse_settings(params.initialization_options)[0]}
    ls.scheduler = Scheduler(ls.take_snapshot, analysis.analyze, ls.is_current, ls.deliver, ls.analysis_failed)
    ls.pull = ls.supports("text_document", "diagnostic")
    if ls.pull:
        _register_pull_diagnostics(ls)
    client = params.client_info.name if params.client_info else "an unnamed client"
    log.info("initialize from %s (position encoding %s, %s diagnostics)", client, ls.encoding.kind,
             "pull" if ls.pull else "push")


def _register_pull_diagnostics(ls: GradguardServer) -> None:
    options = types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=False, workspace_diagnostics=True)
    ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)(pull_document_diagnostics)
    ls.feature(types.WORKSPACE_DIAGNOSTIC)(pull_workspace_diagnostics)


@server.feature(types.INITIALIZED)
async def initialized(ls: GradguardServer, params: types.InitializedParams) -> None:
    ls.log_message(f"gradguard {__version__} started ({'pull' if ls.pull else 'push'} diagnostics, "
                   f"positions in {ls.encoding.kind})", types.MessageType.Info)
    await ls.load_settings()
    if ls.supports("workspace", "did_change_configuration", "dynamic_registration"):
        await _register(ls, types.WORKSPACE_DID_CHANGE_CONFIGURATION, None)
    if ls.supports("workspace", "did_change_watched_files", "dynamic_registration"):
        watchers = [types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]
        if ls.pull:  # workspace diagnostics report files that are not open: watch them too
            watchers.append(types.FileSystemWatcher(glob_pattern="**/*.py"))
        await _register(ls, types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))
    ls.reanalyse_all()


async def _register(ls: GradguardServer, method: str, options: object) -> None:
    registration = types.Registration(id=f"{SECTION}-{method}", method=method, register_options=options)
    try:
        await ls.client_register_capability_async(types.RegistrationParams([registration]))
    except Exception as error:
        ls.log_message(f"could not register {method}: {error}", types.MessageType.Warning)


@server.feature(types.SHUTDOWN)
def shutdown(ls: GradguardServer, *args) -> None:
    if ls.scheduler is not None:
        ls.scheduler.shutdown()
    ls.jedi_executor.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------------------------
# Documents


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GradguardServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.store.open(params.text_document)
    ls.request_analysis(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GradguardServer, params: types.DidChangeTextDocumentParams) -> None:
    if ls.store.change(params, ls.encoding) is None:
        ls.log_message(f"didChange for a document that is not open: {params.text_document.uri}",
                       types.MessageType.Warning)
        return
    ls.request_analysis(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: GradguardServer, params: types.DidSaveTextDocumentParams) -> None:
    if params.text_document.uri.endswith("pyproject.toml"):
        config_changed(ls)
    elif ls.store.get(params.text_document.uri) is not None:
        ls.request_analysis(params.text_document.uri)
    ls.workspace_changed.set()


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GradguardServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    document = ls.store.get(uri)
    ls.store.close(uri)
    if document is not None and document.notebook_uri:
        return  # a cell: its notebook's close clears it
    ls.forget(uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def did_open_notebook(ls: GradguardServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.store.open_notebook(params)
    ls.request_analysis(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: GradguardServer, params: types.DidChangeNotebookDocumentParams) -> None:
    if ls.store.change_notebook(params, ls.encoding) is not None:
        ls.request_analysis(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def did_save_notebook(ls: GradguardServer, params: types.DidSaveNotebookDocumentParams) -> None:
    if params.notebook_document.uri in ls.store.notebooks:
        ls.request_analysis(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: GradguardServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.store.close_notebook(params.notebook_document.uri)
    ls.forget(params.notebook_document.uri)


# ---------------------------------------------------------------------------------------------
# Configuration


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: GradguardServer, params: types.DidChangeConfigurationParams) -> None:
    if params.settings not in (None, {}) and not ls.supports("workspace", "configuration"):
        ls.pushed_settings = params.settings
    await ls.load_settings()
    ls.reanalyse_all()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: GradguardServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(change.uri.endswith("pyproject.toml") for change in params.changes):
        config_changed(ls)
    else:
        ls.workspace_changed.set()  # a .py file changed on disk: a held workspace/diagnostic answers


def config_changed(ls: GradguardServer) -> None:
    ls.file_configs.clear()
    ls.reported.clear()  # a problem fixed and made again is worth saying again
    ls.reanalyse_all()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def did_change_folders(ls: GradguardServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    await ls.load_settings()
    ls.reanalyse_all()


# ---------------------------------------------------------------------------------------------
# Pull diagnostics (registered in `initialize` only for clients that announce them)


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


async def pull_workspace_diagnostics(ls: GradguardServer, params: types.WorkspaceDiagnosticParams):
    return await workspace_diagnostics(ls, params)


# ---------------------------------------------------------------------------------------------
# Code actions and commands


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND],
        resolve_provider=True,
    ),
)
async def code_action(ls: GradguardServer, params: types.CodeActionParams):
    return await actions.code_actions(ls, params)


@server.feature(types.CODE_ACTION_RESOLVE)
async def resolve_code_action(ls: GradguardServer, action: types.CodeAction) -> types.CodeAction:
    return await actions.resolve(ls, action)


@server.command(FIX_ALL_COMMAND)
async def apply_fix_all(ls: GradguardServer, uri: str | None = None, *args) -> None:
    """Apply every safe fix to a document (the editor's "gradguard: Fix All")."""
    if not isinstance(uri, str) or ls.store.get(uri) is None:
        raise ValueError(f"{FIX_ALL_COMMAND} expects the URI of an open document, got {uri!r}")
    edit = await actions.fix_all_edit(ls, uri)
    if edit is None:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, "gradguard: nothing to fix"))
        return
    await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit, label="gradguard: fix all"))


def start(tcp: tuple[str, int] | None = None) -> None:
    if tcp is None:
        server.start_io()
    else:
        server.start_tcp(*tcp)

