"""A minimal language-server client for the benchmark: asyncio, JSON-RPC over a child's stdio.

It speaks just enough LSP to time diagnostics: initialize (push diagnostics only, UTF-16 positions,
incremental sync; more capabilities when asked, as for the lens's hover and inlay hints), open
documents, send incremental edits, wait for `textDocument/publishDiagnostics`, and send requests. Requests from the server (workspace/configuration,
client/registerCapability, window/workDoneProgress/create, ...) get an empty answer so no server
waits on us. Stdlib only.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Published:
    at: float               # time.perf_counter() when the message was read
    uri: str
    version: int | None
    count: int              # number of diagnostics


@dataclass
class LspClient:
    command: list[str]
    cwd: Path
    stderr_path: Path | None = None
    process: asyncio.subprocess.Process | None = None
    published: list[Published] = field(default_factory=list)
    server_capabilities: dict = field(default_factory=dict)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _waiting: dict[int, asyncio.Future] = field(default_factory=dict)
    _reader: asyncio.Task | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _stderr: Any = None

    # -- process -------------------------------------------------------------------------------

    async def start(self, env: dict[str, str] | None = None) -> None:
        self._stderr = open(self.stderr_path, "wb") if self.stderr_path else asyncio.subprocess.DEVNULL
        self.process = await asyncio.create_subprocess_exec(
            *self.command, cwd=self.cwd, env=env or os.environ.copy(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self._stderr,
            limit=2**24)
        self._reader = asyncio.get_running_loop().create_task(self._read_loop())

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def stop(self) -> None:
        """shutdown + exit, then make sure the process is gone."""
        if self.process is None:
            return
        try:
            if self.process.returncode is None:
                await asyncio.wait_for(self.request("shutdown", None), 10)
                await self.notify("exit", None)
                await asyncio.wait_for(self.process.wait(), 10)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            pass
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            if self._reader:
                self._reader.cancel()
            if self._stderr not in (None, asyncio.subprocess.DEVNULL):
                self._stderr.close()

    # -- JSON-RPC ------------------------------------------------------------------------------

    async def _send(self, message: dict) -> float:
        assert self.process is not None and self.process.stdin is not None
        body = json.dumps(message, separators=(",", ":")).encode("utf-8")
        sent = time.perf_counter()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await self.process.stdin.drain()
        return sent

    async def request(self, method: str, params: Any) -> Any:
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        await self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return await future

    async def notify(self, method: str, params: Any) -> float:
        """Send a notification; returns the time just before it was written."""
        return await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def _read_loop(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        stdout = self.process.stdout
        try:
            while True:
                length = None
                while True:
                    line = await stdout.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                body = await stdout.readexactly(length or 0)
                at = time.perf_counter()
                self._dispatch(json.loads(body), at)
        except (EOFError, asyncio.IncompleteReadError, ConnectionError):
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the server closed its output"))
            self._changed.set()

    def _dispatch(self, message: dict, at: float) -> None:
        if "id" in message and "method" not in message:        # a response
            future = self._waiting.pop(message["id"], None)
            if future and not future.done():
                if "error" in message:
                    future.set_exception(RuntimeError(f"{message['error']}"))
                else:
                    future.set_result(message.get("result"))
        elif "id" in message:                                     # a request from the server
            method, params = message["method"], message.get("params") or {}
            result = [None for _ in params.get("items", [])] if method == "workspace/configuration" else None
            asyncio.get_running_loop().create_task(
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": result}))
        elif message.get("method") == "textDocument/publishDiagnostics":
            params = message["params"]
            self.published.append(Published(at, params["uri"], params.get("version"),
                                            len(params.get("diagnostics", []))))
            self._changed.set()

    # -- LSP -----------------------------------------------------------------------------------

    async def initialize(self, root: Path, options: Any = None, settings: Any = None,
                         extra_capabilities: dict | None = None) -> dict:
        root_uri = root.resolve().as_uri()
        capabilities = {
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {
                "synchronization": {"dynamicRegistration": False, "didSave": False,
                                    "willSave": False, "willSaveWaitUntil": False},
                "publishDiagnostics": {"versionSupport": True, "relatedInformation": False},
                # no "diagnostic" entry: the client wants push diagnostics only
            },
            "workspace": {"workspaceFolders": True, "configuration": False,
                          "didChangeConfiguration": {"dynamicRegistration": False}},
            "window": {"workDoneProgress": False},
        }
        for section, entries in (extra_capabilities or {}).items():  # e.g. hover and inlay hints (the lens)
            capabilities.setdefault(section, {}).update(entries)
        result = await self.request("initialize", {
            "processId": os.getpid(), "clientInfo": {"name": "gradguard-bench", "version": "1"},
            "rootUri": root_uri, "rootPath": str(root.resolve()),
            "workspaceFolders": [{"uri": root_uri, "name": root.name}],
            "capabilities": capabilities, "initializationOptions": options,
        })
        self.server_capabilities = (result or {}).get("capabilities", {})
        await self.notify("initialized", {})
        if settings is not None:
            await self.notify("workspace/didChangeConfiguration", {"settings": settings})
        return result

    @property
    def incremental(self) -> bool:
        sync = self.server_capabilities.get("textDocumentSync")
        kind = sync.get("change") if isinstance(sync, dict) else sync
        return kind == 2

    async def open(self, path: Path, text: str, version: int = 1) -> tuple[str, float]:
        uri = path.resolve().as_uri()
        sent = await self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}})
        return uri, sent

    async def insert(self, uri: str, version: int, line: int, character: int, char: str,
                     full_text: str | None = None) -> float:
        """Type `char` at (line, character), incrementally unless the server only takes full text."""
        if self.incremental or full_text is None:
            position = {"line": line, "character": character}
            change = {"range": {"start": position, "end": position}, "text": char}
        else:
            change = {"text": full_text}
        return await self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})

    async def diagnostics(self, uri: str, version: int | None, after: int, timeout: float) -> Published:
        """The first publishDiagnostics for `uri` at index >= `after` that carries `version`
        (or carries no version at all: servers that do not send one are answered by their next
        publish after the edit)."""
        deadline = time.perf_counter() + timeout
        index = after
        while True:
            while index < len(self.published):
                message = self.published[index]
                index += 1
                if message.uri == uri and (message.version is None or version is None
                                           or message.version == version):
                    return message
            if self.process is not None and self.process.returncode is not None:
                raise ConnectionError(f"the server exited with status {self.process.returncode}")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise asyncio.TimeoutError
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server process has used so far, from /proc (Linux)."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def wait_idle(self, still: float = 1.0, limit: float = 120.0) -> float:
        """Wait until the server has used almost no CPU (< 2%) for `still` seconds, at most `limit`
        seconds; returns the perf_counter time at which its last busy stretch ended."""
        start = time.perf_counter()
        samples = [(start, self.cpu_seconds())]
        busy_until = start
        while time.perf_counter() - start < limit:
            await asyncio.sleep(0.1)
            now, cpu = time.perf_counter(), self.cpu_seconds()
            if cpu - samples[-1][1] > 0.002 * 1.0:   # busy in the last tick (a few ms of CPU)
                busy_until = now
            samples.append((now, cpu))
            if now - busy_until >= still:
                window = [c for t, c in samples if t >= now - still]
                if window[-1] - window[0] < 0.02 * still:
                    break
        return busy_until
