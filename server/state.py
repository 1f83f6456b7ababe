"""The server's state and what every handler shares: `GradguardServer` and its protocol.

Documents live in `DocumentStore`; analysis runs in `Scheduler`'s worker thread on snapshots, then
once more with jedi when the document has been still; results are pushed, or kept for the client
to pull when it announces pull diagnostics. The LSP handlers live in the modules beside this one;
this module imports none of them.
"""
from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from gradguard.rules import __version__
from gradguard.rules.project.config import Config, ConfigError
from gradguard.rules.source.incremental import IncrementalParser

from . import analysis, publication
from .analysis import Result, Snapshot
from .documents import DocumentStore, Encoding
from .scheduler import Scheduler
from .settings import SECTION, ClientSettings, FileConfigs, parse_settings

if TYPE_CHECKING:
    from gradguard.rules.model.inference import JediResolver

log = logging.getLogger("gradguard.server")
JEDI_IDLE_DELAY = 0.25  # seconds without an edit before the cross-module pass starts
MAX_INCREMENTAL_DOCUMENTS = 8  # documents whose syntax tree is kept for incremental parsing
# An analysis this long (opening a file, the jedi pass, a paste: not a typed character) leaves many
# new objects alive; once it is delivered they are collected into the oldest generation, else the
# collector scans them at some later keystroke (10 ms more for one keystroke of the first five on
# a 5,000-line file).
LARGE_ANALYSIS_SECONDS = 0.05


def _user_handler_only(method: str):
    """A builtin that skips pygls's own document bookkeeping: DocumentStore keeps the documents."""

    @lsp_method(method)
    def handler(self, *args):
        if (user := self.fm.features.get(method)) is not None:
            yield user, args, None

    return handler


# The messages of an editing session: cattrs makes each one's converter the first time it is met
# (2 ms for didChange's), so the first keystroke and the first hover paid for it.
SESSION_METHODS = (
    types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_SAVE, types.TEXT_DOCUMENT_DID_CLOSE,
    types.TEXT_DOCUMENT_CODE_ACTION, types.CODE_ACTION_RESOLVE, types.TEXT_DOCUMENT_HOVER,
    types.TEXT_DOCUMENT_INLAY_HINT, types.TEXT_DOCUMENT_CODE_LENS, types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.NOTEBOOK_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
)


class GradguardProtocol(LanguageServerProtocol):
    def prepare_converters(self, methods=SESSION_METHODS) -> None:
        """Make the converters of these methods' messages and results now (the server calls this
        once initialized, before any document is opened), not on their first use."""
        structure, unstructure = publication.hooks(self._converter)
        for method in methods:
            message, result, _, _ = types.METHOD_TO_TYPES[method]
            structure(message)
            unstructure(message)
            if result is not None:
                unstructure(result)

    def _send_data(self, data) -> None:
        """pygls's, but a publication of diagnostics is written from each diagnostic's kept JSON
        (`publication.body`) instead of encoding every one again."""
        if not isinstance(data, types.PublishDiagnosticsNotification) or self.writer is None:
            return super()._send_data(data)
        try:
            body = publication.body(data, self._converter).encode(self.CHARSET)
        except Exception:  # pygls's own path then says what is wrong
            log.exception("publication of %s: falling back to pygls's encoding", data.params.uri)
            return super()._send_data(data)
        header = (f"Content-Length: {len(body)}\r\n"
                  f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n").encode(self.CHARSET)
        try:
            written = self.writer.write(header + body if self._include_headers else body)
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            log.exception("sending diagnostics: the client's pipe is closed")
            raise
        except Exception as error:  # as pygls reports a failed write
            log.exception("sending diagnostics failed")
            self._server._report_server_error(error, JsonRpcInternalError)

    lsp_text_document__did_open = _user_handler_only(types.TEXT_DOCUMENT_DID_OPEN)
    lsp_text_document__did_change = _user_handler_only(types.TEXT_DOCUMENT_DID_CHANGE)
    lsp_text_document__did_close = _user_handler_only(types.TEXT_DOCUMENT_DID_CLOSE)
    lsp_notebook_document__did_open = _user_handler_only(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    lsp_notebook_document__did_change = _user_handler_only(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    lsp_notebook_document__did_close = _user_handler_only(types.NOTEBOOK_DOCUMENT_DID_CLOSE)


class GradguardServer(LanguageServer):
    def __init__(self):
        super().__init__(
            "gradguard",
            __version__,
            protocol_cls=GradguardProtocol,
            converter_factory=publication.lsp_converter,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithCells(
                    cells=[types.NotebookCellLanguage(language="python")], notebook="*")],
                save=True,
            ),
        )
        self.store = DocumentStore()
        self.encoding = Encoding()
        self.file_configs = FileConfigs()
        self.results: dict[str, Result] = {}
        self.published: dict[str, set[str]] = {}          # target -> URIs with pushed diagnostics
        self.waiters: dict[str, list[asyncio.Future]] = {}
        self.folder_settings: dict[str, ClientSettings] = {}
        self.pushed_settings: object = None               # initializationOptions / didChangeConfiguration
        self.reported: set[str] = set()                   # problems already shown to the user
        self.pull = False
        self.generation = 0                               # bumped when settings or config change
        self.settings_loaded = False                      # documents wait for the client's settings
        self.workspace_changed = asyncio.Event()          # wakes a held workspace/diagnostic
        self.scheduler: Scheduler[Snapshot, Result] | None = None
        # The jedi pass runs in its own thread so that it never delays the fast pass of an edit.
        self.jedi_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gradguard-jedi")
        self.resolvers: dict[tuple, JediResolver] = {}
        self.parsers: dict[str, IncrementalParser] = {}  # per target: re-parse only what an edit changed

    # -- capabilities --------------------------------------------------------------------------

    @property
    def caps(self) -> types.ClientCapabilities:
        return self.client_capabilities

    def supports(self, *path: str) -> bool:
        """Whether a (nested) client capability is present and truthy."""
        value: object = self.caps
        for name in path:
            value = getattr(value, name, None)
            if value is None:
                return False
        return bool(value)

    @property
    def accepts_related_information(self) -> bool:
        """Whether diagnostics may carry related information (where the gradient starts, where the
        loss reaches `tape.gradient`): the client says so for pushed diagnostics, or for pulled ones
        (LSP 3.18). A client that does not (Emacs's eglot, for one) is sent the message alone,
        which names the lines too; the locations were a third of a publication's bytes."""
        return (self.supports("text_document", "publish_diagnostics", "related_information")
                or self.supports("text_document", "diagnostic", "related_information"))

    # -- messages ------------------------------------------------------------------------------

    def log_message(self, message: str, level: types.MessageType = types.MessageType.Log) -> None:
        log.log(_LOGGING_LEVEL[level], message)
        try:
            self.window_log_message(types.LogMessageParams(level, message))
            if self.protocol.trace != types.TraceValue.Off:
                self.log_trace(types.LogTraceParams(message))
        except Exception:  # no client connected (tests, shutdown)
            pass

    def trace(self, message: str, verbose: str | None = None) -> None:
        """`$/logTrace`, only when the client asked for it with `$/setTrace`."""
        if self.protocol.trace == types.TraceValue.Off:
            return
        detail = verbose if self.protocol.trace == types.TraceValue.Verbose else None
        self.log_trace(types.LogTraceParams(message, detail))

    def report_problem(self, message: str) -> None:
        """Tell the user once about a problem they can fix (a broken setting or config file)."""
        self.log_message(message, types.MessageType.Warning)
        if message not in self.reported:
            self.reported.add(message)
            self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, f"gradguard: {message}"))

    # -- settings ------------------------------------------------------------------------------

    def folder_of(self, uri: str) -> str | None:
        folders = [f.uri for f in (self.workspace.folders or {}).values()] if self.workspace else []
        matches = [f for f in folders if uri.startswith(f.rstrip("/") + "/")]
        return max(matches, key=len) if matches else None

    def settings_for(self, uri: str) -> ClientSettings:
        folder = self.folder_of(uri)
        if folder in self.folder_settings:
            return self.folder_settings[folder]
        return self.folder_settings.get("", ClientSettings())

    async def load_settings(self) -> None:
        """Ask the client for `gradguard` settings per workspace folder (or take the pushed ones)."""
        scopes = [None, *[f.uri for f in (self.workspace.folders or {}).values()]]
        raws: list[object] = [self.pushed_settings] * len(scopes)
        if self.supports("workspace", "configuration"):
            try:
                items = [types.ConfigurationItem(scope_uri=scope, section=SECTION) for scope in scopes]
                raws = await asyncio.wait_for(
                    self.workspace_configuration_async(types.ConfigurationParams(items)), 10)
            except Exception as error:
                self.log_message(f"workspace/configuration failed ({error}); using the pushed settings",
                                 types.MessageType.Warning)
        settings = {}
        for scope, raw in zip(scopes, raws):
            parsed, problems = parse_settings(raw if raw is not None else self.pushed_settings)
            for problem in problems:
                self.report_problem(problem)
            settings[scope or ""] = parsed
        self.folder_settings = settings
        self.settings_loaded = True
        self.log_message(f"settings: {settings.get('')}")

    def config_for(self, target: str, path: str) -> Config:
        settings = self.settings_for(target)
        try:
            config, _ = self.file_configs.for_path(path) if os.path.isabs(path) else (Config(), None)
        except ConfigError as error:
            self.report_problem(f"{error}; using the default configuration until it is fixed")
            config = Config()
        return settings.apply_to(config)

    # -- analysis ------------------------------------------------------------------------------

    def take_snapshot(self, target: str) -> Snapshot | None:
        notebook = self.store.notebooks.get(target)
        numbers: list[int] = []
        if notebook is not None:
            numbered = self.store.python_cells(notebook)
            if not numbered:
                return None
            numbers, documents = [n for n, _ in numbered], [d for _, d in numbered]
        else:
            document = self.store.get(target)
            if document is None:
                return None
            documents = [document]
        path = _path_of(target)
        parser = self._parser_for(target, path)
        settings = self.settings_for(target)
        return analysis.snapshot(target, path, documents, notebook is not None, self.config_for(target, path),
                                 self.encoding, self.generation, numbers, parser,
                                 lens=settings.lens_hover or settings.lens_inlay_hints,
                                 related=self.accepts_related_information)

    def _parser_for(self, target: str, path: str) -> IncrementalParser:
        """The target's incremental parser; only the most recently analysed documents keep one
        (a parser holds its document's syntax tree, and people type in a few files at a time)."""
        parser = self.parsers.pop(target, None) or IncrementalParser(path)
        self.parsers[target] = parser
        while len(self.parsers) > MAX_INCREMENTAL_DOCUMENTS:
            self.parsers.pop(next(iter(self.parsers)))
        return parser

    def current_versions(self, target: str) -> tuple[int, ...] | None:
        notebook = self.store.notebooks.get(target)
        if notebook is not None:
            return tuple(document.version for _, document in self.store.python_cells(notebook))
        document = self.store.get(target)
        return (document.version,) if document else None

    def is_current(self, snap: Snapshot) -> bool:
        """The target still has this text, under the same settings and configuration."""
        return snap.generation == self.generation and self.current_versions(snap.target) == snap.versions

    def request_analysis(self, uri: str) -> None:
        if not self.settings_loaded:
            return  # `initialized` analyses every open document once the settings are known
        target = self.store.target_of(uri)
        if not self.settings_for(target).enable:
            self.results.pop(target, None)
            self.clear_diagnostics(target)
            return
        self.scheduler.request(target)

    def deliver(self, result: Result) -> None:
        target = result.snapshot.target
        if not self.settings_for(target).enable:  # switched off while it was analysed
            self._release_waiters(target)
            return
        self.results[target] = result
        if self.protocol.trace != types.TraceValue.Off:  # (counting the values joins the parts for the lens)
            lens = f"{len(result.lens.values)} values recorded for the lens" if result.lens is not None else \
                "no values recorded (the lens is off)"
            self.trace(f"analysed {target}: {len(result.diagnostics)} diagnostics; {lens}",
                       ", ".join(f"{d.code}@{d.span.line}" for d in result.diagnostics))
        for waiter in self.waiters.pop(target, []):
            if not waiter.done():
                waiter.set_result(result)
        if not self.pull:
            self.push(result)
        if result.seconds > LARGE_ANALYSIS_SECONDS:
            asyncio.get_running_loop().call_soon(gc.collect, 1)  # after the diagnostics are written
        if not result.cross_module:
            self.refine(result.snapshot)

    # -- the jedi pass -------------------------------------------------------------------------

    def refine(self, snap: Snapshot) -> None:
        """Analyse again following calls into other modules; publish again if that finds more.

        It starts once the document has been still for JEDI_IDLE_DELAY: while the user types,
        the fast pass has the machine to itself (a second analysis per keystroke would halve it).
        """
        settings = self.settings_for(snap.target)
        if not settings.jedi_enable or settings.jedi_time_budget <= 0:
            return
        asyncio.get_running_loop().call_later(JEDI_IDLE_DELAY, self._refine_if_still, snap, settings)

    def _refine_if_still(self, snap: Snapshot, settings: ClientSettings) -> None:
        if not self.is_current(snap):
            return  # typed on: the next fast pass schedules its own
        from gradguard.rules.model.inference import Budget

        resolver = self.resolver_for(snap, settings)
        budget = Budget(settings.jedi_time_budget, stale=lambda: not self.is_current(snap))
        future = asyncio.get_running_loop().run_in_executor(self.jedi_executor, analysis.cross_module, snap, resolver,
                                                            budget)
        future.add_done_callback(lambda done: self._refined(done, snap))

    def _refined(self, future: asyncio.Future, snap: Snapshot) -> None:
        if future.cancelled() or not self.is_current(snap):
            return  # dropped: the document changed meanwhile
        error = future.exception()
        if error is not None:
            self.log_message(f"cross-module analysis of {snap.target} failed: {error!r}", types.MessageType.Warning)
            return
        result = future.result()
        if result is None:
            return  # nothing to ask jedi: the fast pass's result stands
        previous = self.results.get(snap.target)
        if previous is not None and previous.diagnostics == result.diagnostics:
            # Nothing new to publish; the lens may still have learnt something from the other modules.
            if result.recorder is not None:
                self.results[snap.target] = result
                if _hints(previous) != _hints(result):
                    self.refresh_lens()
            return
        self.trace(f"jedi pass for {snap.target}: {len(result.diagnostics)} diagnostics")
        self.deliver(result)
        if self.pull and self.supports("workspace", "diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)
        self.refresh_lens()

    def refresh_lens(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again, where it announced it can be
        asked: results changed without an edit (the jedi pass, changed settings)."""
        try:
            if self.supports("workspace", "inlay_hint", "refresh_support"):
                self.workspace_inlay_hint_refresh(None).add_done_callback(_answered)
            if self.supports("workspace", "code_lens", "refresh_support"):
                self.workspace_code_lens_refresh(None).add_done_callback(_answered)
        except Exception as error:  # no client connected (tests, shutdown)
            log.debug("lens refresh not sent: %r", error)

    def resolver_for(self, snap: Snapshot, settings: ClientSettings) -> JediResolver:
        folder = self.folder_of(snap.target)
        root = _path_of(folder) if folder else (os.path.dirname(snap.path) if os.path.isabs(snap.path) else None)
        key = (root, settings.jedi_environment)
        if key not in self.resolvers:
            from gradguard.rules.model.inference import JediResolver

            self.resolvers[key] = JediResolver(root, settings.jedi_environment)
        return self.resolvers[key]

    def analysis_failed(self, target: str, error: BaseException) -> None:
        detail = "".join(traceback.format_exception(error))
        self.log_message(f"analysis of {target} failed: {error!r}\n{detail}", types.MessageType.Error)
        self._release_waiters(target)

    def _release_waiters(self, target: str) -> None:
        """Pull requests waiting for a result that will not come get "nothing"."""
        for waiter in self.waiters.pop(target, []):
            if not waiter.done():
                waiter.set_result(None)

    def push(self, result: Result) -> None:
        target = result.snapshot.target
        versions = {part.uri: part.version for part in result.snapshot.parts}
        stale = self.published.get(target, set()) - set(result.by_uri)
        for uri in stale:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
        for uri, diagnostics in result.by_uri.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics, versions[uri]))
        self.published[target] = set(result.by_uri)

    def clear_diagnostics(self, target: str) -> None:
        if self.pull:
            return
        for uri in self.published.pop(target, set()):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    async def current_result(self, target: str) -> Result | None:
        """The result for the target's current text, waiting for the analysis if needed."""
        versions = self.current_versions(target)
        if versions is None:
            return None
        result = self.results.get(target)
        if result is not None and result.snapshot.versions == versions:
            return result
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.setdefault(target, []).append(waiter)
        self.scheduler.request(target)
        return await waiter

    def forget(self, target: str) -> None:
        self.scheduler.forget(target)
        self.results.pop(target, None)
        self.parsers.pop(target, None)
        self._release_waiters(target)
        self.clear_diagnostics(target)

    def reanalyse_all(self) -> None:
        self.generation += 1
        self.workspace_changed.set()
        self.results.clear()
        targets = set(self.store.notebooks) | {uri for uri, d in self.store.documents.items() if not d.notebook_uri}
        for target in targets:
            self.request_analysis(target)
        if self.pull and self.supports("workspace", "diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)
        self.refresh_lens()  # a lens switched on (or a new configuration): its requests wait for the analyses


def _answered(future) -> None:
    """A refresh the client answered with an error (it said it supports them): logged, nothing more."""
    if not future.cancelled() and future.exception() is not None:
        log.debug("the client refused a refresh: %r", future.exception())


def _hints(result: Result) -> list | None:
    """The lens's hints of a result, to tell whether the client must fetch them again."""
    return result.lens.hints() if result.lens is not None else None


def _path_of(uri: str) -> str:
    """A file system path for per-file ignores and pyproject lookup; the URI itself otherwise."""
    if uri.startswith("file:"):
        path = to_fs_path(uri)
        if path:
            return path
    return uri


_LOGGING_LEVEL = {
    types.MessageType.Error: logging.ERROR,
    types.MessageType.Warning: logging.WARNING,
    types.MessageType.Info: logging.INFO,
    types.MessageType.Log: logging.DEBUG,
    types.MessageType.Debug: logging.DEBUG,
}

# The one server of the process: the handler modules register their features on it when imported.
server = GradguardServer()
