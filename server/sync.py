"""Document and notebook synchronisation: open, change, save and close ask for analysis or forget.

The protocol's builtins for these notifications do no bookkeeping of their own (see
`state.GradguardProtocol`): `DocumentStore` is the one copy of the open documents.
"""
from __future__ import annotations

from lsprotocol import types

from .configuration import config_changed
from .state import GradguardServer, server


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
