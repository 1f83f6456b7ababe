"""Changed settings, `pyproject.toml` files and workspace folders: load again, analyse everything again."""
from __future__ import annotations

from lsprotocol import types

from .state import GradguardServer, server


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
