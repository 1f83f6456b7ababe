"""The server under abuse: it keeps answering, stays bounded, and its copy of a document always
equals the client's (checked through what it publishes: the diagnostics of the final text)."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

from lsprotocol import types

from gradguard.server import analysis
from gradguard.server.documents import Encoding, TextDocument
from lsp_harness import apply_text_edits
from raw_client import RawClient, raw_session

EXAMPLE = (Path(__file__).parents[2] / "examples" / "dqn_no_gradients.py").read_text()


def _expected(uri: str, text: str) -> list[tuple]:
    """What the server must publish for `text`: computed here from the client's own copy."""
    snap = analysis.snapshot(uri, "/nonexistent/train.py", [TextDocument(uri, text, 1)], False,
                             analysis.Config(), Encoding())
    return sorted(_key_of_lsp(d) for d in analysis.analyze(snap).by_uri[uri])


def _key_of_lsp(d: types.Diagnostic) -> tuple:
    r = d.range
    return d.code, r.start.line, r.start.character, r.end.line, r.end.character, d.message


def _key_of_json(d: dict) -> tuple:
    r = d["range"]
    return d["code"], r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"], d["message"]


def _open(client: RawClient, uri: str, text: str) -> None:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                           "text": text}})


def _change(client: RawClient, uri: str, version: int, start, end, text: str) -> None:
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": {"line": start[0], "character": start[1]},
                                      "end": {"line": end[0], "character": end[1]}}, "text": text}]})


def _random_edit(rng: random.Random, text: str) -> tuple[tuple, tuple, str]:
    lines = text.split("\n")
    line = rng.randrange(len(lines) + 2)  # sometimes past the end
    start = (line, rng.randrange(0, 120))  # sometimes past the end of the line
    end = (line + rng.choice([0, 0, 0, 1]), rng.randrange(0, 120))
    if end < start:
        start, end = end, start
    return start, end, rng.choice(["", "x", "# c", "\n", "(", ")", "é", "😀", "    ", "tf.round(", "\r\n"])


def _apply(text: str, start, end, new: str) -> str:
    edit = types.TextEdit(types.Range(types.Position(*start), types.Position(*end)), new)
    return apply_text_edits(text, [edit])


async def test_malformed_frames_and_unknown_methods_do_not_stop_the_server(tmp_path):
    async with raw_session(tmp_path, initialize=False) as client:
        client.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
        client.send_bytes(b"garbage header line\r\nContent-Length: 2\r\n\r\n[]")
        client.send({"jsonrpc": "2.0", "id": 999, "method": "textDocument/codeAction", "params": {"bogus": 1}})
        reply = await client.initialize(tmp_path)
        assert reply["result"]["serverInfo"]["name"] == "gradguard"
        unknown = await client.request("gradguard/noSuchMethod", {"x": 1})
        assert unknown["error"]["code"] == -32601
        client.notify("$/noSuchNotification", {})
        uri = (tmp_path / "train.py").as_uri()
        _open(client, uri, EXAMPLE)
        published = await client.wait_published(uri, 1)
        assert sorted(_key_of_json(d) for d in published["diagnostics"]) == _expected(uri, EXAMPLE)


async def test_requests_about_unknown_and_closed_documents(tmp_path):
    async with raw_session(tmp_path) as client:
        uri = (tmp_path / "train.py").as_uri()
        _open(client, uri, EXAMPLE)
        await client.wait_published(uri, 1)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        _change(client, uri, 2, (0, 0), (0, 0), "x")  # after close: ignored
        nowhere = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
        for target in (uri, "file:///never/opened.py", "untitled:Untitled-1"):
            reply = await client.request("textDocument/codeAction", {
                "textDocument": {"uri": target}, "range": nowhere, "context": {"diagnostics": []}})
            assert reply.get("result") in ([], None), reply
        reply = await client.request("workspace/executeCommand", {"command": "gradguard.applyFixAll",
                                                                 "arguments": ["file:///never/opened.py"]})
        assert "error" in reply and "open document" in reply["error"]["message"]
        assert client.published(uri)[-1]["diagnostics"] == []  # closing cleared them


async def test_out_of_range_edits_are_clamped_like_the_client_does(tmp_path):
    async with raw_session(tmp_path) as client:
        uri = (tmp_path / "train.py").as_uri()
        text = EXAMPLE
        _open(client, uri, text)
        edits = [((9999, 0), (9999, 5), "\n# appended"), ((3, 500), (3, 900), "  # long"),
                 ((0, 0), (0, 0), "import os\n"), ((44, 0), (10**6, 10**6), "")]
        for version, (start, end, new) in enumerate(edits, start=2):
            _change(client, uri, version, start, end, new)
            text = _apply(text, start, end, new)
        published = await client.wait_published(uri, 1 + len(edits))
        assert sorted(_key_of_json(d) for d in published["diagnostics"]) == _expected(uri, text)


async def test_a_storm_of_edits_a_thousand_a_second_for_ten_seconds(tmp_path):
    """10,000 random incremental edits (some out of range, some half-typed code) at 1,000 a
    second: the server keeps up, publishes the last version, agrees with the client's copy, and
    its memory stays bounded."""
    async with raw_session(tmp_path) as client:
        uri = (tmp_path / "train.py").as_uri()
        text, rng = EXAMPLE, random.Random(7)
        _open(client, uri, text)
        version = 1
        for _ in range(1000):  # 1,000 ticks of 10 ms, 10 edits each
            for _ in range(10):
                start, end, new = _random_edit(rng, text)
                version += 1
                _change(client, uri, version, start, end, new)
                text = _apply(text, start, end, new)
            await client.process.stdin.drain()
            await asyncio.sleep(0.01)
        published = await client.wait_published(uri, version, timeout=120)
        assert sorted(_key_of_json(d) for d in published["diagnostics"]) == _expected(uri, text)
        versions = [p["version"] for p in client.published(uri)]
        assert versions == sorted(versions)  # never an older version after a newer one
        reply = await client.request("textDocument/codeAction", {  # and it still answers at once
            "textDocument": {"uri": uri}, "range": published["diagnostics"][0]["range"] if published["diagnostics"]
            else {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": published["diagnostics"][:1]}})
        assert "result" in reply
        assert client.rss_megabytes() < 400


async def test_cancelling_every_request_kind_leaves_the_server_answering(tmp_path):
    pull = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}
    async with raw_session(tmp_path, pull) as client:
        uri = (tmp_path / "train.py").as_uri()
        (tmp_path / "train.py").write_text(EXAMPLE)
        _open(client, uri, EXAMPLE)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 80, "character": 0}}
        requests = [
            ("textDocument/diagnostic", {"textDocument": {"uri": uri}}),
            ("workspace/diagnostic", {"previousResultIds": []}),
            ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}}),
            ("codeAction/resolve", {"title": "gradguard: Fix all safe fixes", "kind": "source.fixAll.gradguard",
                                    "data": {"uri": uri}}),
            ("workspace/executeCommand", {"command": "gradguard.applyFixAll", "arguments": [uri]}),
        ]
        for method, params in requests:
            message_id = client.request_id(method, params)
            client.notify("$/cancelRequest", {"id": message_id})
            reply = await client.response(message_id)
            assert "result" in reply or reply["error"]["code"] in (-32800, -32603), (method, reply)
        reply = await client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        assert [d["code"] for d in reply["result"]["items"]] == ["GG202", "GG101", "GG309"]


async def test_a_50000_line_document_is_analysed_and_the_server_answers_meanwhile(tmp_path):
    async with raw_session(tmp_path) as client:
        filler = "".join(f"\n\ndef helper_{i}(x):\n    return tf.reduce_sum(x) * {i}\n" for i in range(12_500))
        huge = EXAMPLE + filler
        assert huge.count("\n") >= 50_000
        uri = (tmp_path / "huge.py").as_uri()
        _open(client, uri, huge)
        small = (tmp_path / "small.py").as_uri()
        reply = await client.request("textDocument/codeAction", {
            "textDocument": {"uri": small}, "range": {"start": {"line": 0, "character": 0},
                                                      "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []}})
        assert reply.get("result") in ([], None)
        published = await client.wait_published(uri, 1, timeout=300)
        assert [d["code"] for d in published["diagnostics"]] == ["GG202", "GG101", "GG309"]
