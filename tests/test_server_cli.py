"""`gradguard server` / `python -m gradguard.server`: options, TCP transport, log file."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

from gradguard.rules import __version__


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _read_message(stream) -> dict:
    headers = {}
    while (line := stream.readline().strip()):
        name, _, value = line.decode().partition(":")
        headers[name.lower()] = value.strip()
    return json.loads(stream.read(int(headers["content-length"])))


def test_version_is_printed_by_both_entry_points():
    for command in (["-m", "gradguard.server", "--version"], ["-m", "gradguard.rules.app.cli", "server", "--version"]):
        result = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0 and result.stdout.strip() == f"gradguard {__version__}", result


def test_bad_tcp_address_is_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "gradguard.server", "--tcp", "nowhere"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "HOST:PORT" in result.stderr


def test_tcp_server_answers_initialize_and_writes_its_log_file(tmp_path):
    port, log = _free_port(), tmp_path / "server.log"
    server = subprocess.Popen([sys.executable, "-m", "gradguard.server", "--tcp", f"127.0.0.1:{port}",
                               "--log-file", str(log), "--log-level", "debug"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        connection = _connect(port)
        stream = connection.makefile("rb")
        connection.sendall(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                     "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
        reply = _read_message(stream)
        while "id" not in reply:  # log messages may come first
            reply = _read_message(stream)
        assert reply["result"]["serverInfo"] == {"name": "gradguard", "version": __version__}
        capabilities = reply["result"]["capabilities"]
        assert capabilities["textDocumentSync"]["change"] == 2  # incremental
        assert "diagnosticProvider" not in capabilities  # this client did not announce pull diagnostics
        connection.sendall(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        connection.sendall(_message({"jsonrpc": "2.0", "method": "exit"}))
        connection.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "initialize from an unnamed client" in log.read_text()


def _connect(port: int) -> socket.socket:
    deadline = time.monotonic() + 30
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
