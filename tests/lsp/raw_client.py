"""A bare JSON-RPC client over the server's stdio, for abuse tests that a polite client cannot send:
malformed frames, unknown methods, cancellations at any moment, thousands of edits a second."""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import sys
from pathlib import Path

SERVER = [sys.executable, "-m", "gradguard.server"]


class RawClient:
    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process
        self.ids = itertools.count(1)
        self.responses: dict[int, dict] = {}
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def start(cls, *extra: str) -> "RawClient":
        process = await asyncio.create_subprocess_exec(
            *SERVER, *extra, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL)
        return cls(process)

    # -- writing -------------------------------------------------------------------------------

    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: object = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_id(self, method: str, params: object = None) -> int:
        message_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})
        return message_id

    async def request(self, method: str, params: object = None, timeout: float = 60) -> dict:
        return await self.response(self.request_id(method, params), timeout)

    async def response(self, message_id: int, timeout: float = 60) -> dict:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while message_id not in self.responses:
            if loop.time() > deadline:
                raise AssertionError(f"no response to request {message_id} within {timeout} s")
            if self.process.returncode is not None:
                raise AssertionError(f"the server exited with {self.process.returncode}")
            await asyncio.sleep(0.005)
        return self.responses.pop(message_id)

    async def initialize(self, root: Path, capabilities: dict | None = None) -> dict:
        reply = await self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": capabilities or {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": {"gradguard": {"jedi": {"enable": False}}},
        })
        self.notify("initialized", {})
        return reply

    async def shutdown(self) -> int:
        await self.request("shutdown")
        self.notify("exit")
        await self.process.stdin.drain()
        return await asyncio.wait_for(self.process.wait(), 30)

    # -- reading -------------------------------------------------------------------------------

    async def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = await stream.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            message = json.loads(await stream.readexactly(int(headers["content-length"])))
            if "method" in message and "id" in message:  # a request from the server: answer null
                self.server_requests.append(message)
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.append(message)
            else:
                self.responses[message["id"]] = message

    def published(self, uri: str) -> list[dict]:
        return [n["params"] for n in self.notifications
                if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri]

    async def wait_published(self, uri: str, version: int, timeout: float = 60) -> dict:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            found = [p for p in self.published(uri) if p.get("version") == version]
            if found:
                return found[-1]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no diagnostics for {uri} version {version}; got {[p.get('version') for p in self.published(uri)]}")

    def rss_megabytes(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))) / 1024


@contextlib.asynccontextmanager
async def raw_session(root: Path, capabilities: dict | None = None, *, initialize: bool = True):
    """A started server (initialised unless told otherwise) that must shut down cleanly."""
    client = await RawClient.start()
    try:
        if initialize:
            await client.initialize(root, capabilities)
        yield client
        assert await client.shutdown() == 0
    finally:
        if client.process.returncode is None:
            client.process.kill()
