"""`initialize`, `initialized` and `shutdown`: what the client can do, its settings, the workers."""
from __future__ import annotations

import logging

from lsprotocol import types

from gradguard.rules import __version__

from . import analysis, diagnostics
from .documents import Encoding
from .scheduler import Scheduler
from .settings import SECTION, parse_settings
from .state import GradguardServer, server

log = logging.getLogger("gradguard.server")


@server.feature(types.INITIALIZE)
def initialize(ls: GradguardServer, params: types.InitializeParams) -> None:
    ls.encoding = Encoding(ls.workspace.position_encoding or "utf-16")
    ls.pushed_settings = params.initialization_options
    ls.folder_settings = {"": parse_settings(params.initialization_options)[0]}
    ls.scheduler = Scheduler(ls.take_snapshot, analysis.analyze, ls.is_current, ls.deliver, ls.analysis_failed)
    ls.pull = ls.supports("text_document", "diagnostic")
    if ls.pull:
        diagnostics.register_pull_diagnostics(ls)
    client = params.client_info.name if params.client_info else "an unnamed client"
    log.info("initialize from %s (position encoding %s, %s diagnostics)", client, ls.encoding.kind,
             "pull" if ls.pull else "push")


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
    ls.protocol.prepare_converters()


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
