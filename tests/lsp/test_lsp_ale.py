"""Quick fixes for clients that send diagnostics back their own way, over stdio as raw JSON.

Vim's ALE (autoload/ale/codefix.vim, 3.3) asks `textDocument/codeAction` with the diagnostic
nearest the cursor rebuilt from its location list: `code`, `message` (lines joined by spaces) and
`range` only, no `source` and no `data`; with no diagnostic on the cursor's line it sends none at
all. Its request range is the word under the cursor. These tests send exactly that shape, with
ALE's initialize capabilities (no documentChanges, so edits come as a `changes` map).
"""
from __future__ import annotations

from lsprotocol import types

from gradguard.rules import analyze
from lsp_harness import apply_text_edits
from raw_client import raw_session

# GG306 on line 8 (0-based 7, the `x` of tape.gradient(y, x)); GG102 (np.round) and GG101 (.numpy()) side by side on line 11.
SOURCE = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = x * x
dy_dx = tape.gradient(y, x)

with tf.GradientTape() as tape2:
    loss = tf.reduce_mean(np.round(model(x))) + tf.reduce_mean(model(x).numpy())
grads = tape2.gradient(loss, model.trainable_variables)
'''
LOSS_LINE = 10  # 0-based

# What ALE 3.3 sends at initialize (autoload/ale/lsp.vim, s:SendInitMessage), the parts that matter.
ALE_CAPABILITIES = {
    "workspace": {"applyEdit": False, "workspaceFolders": False, "configuration": False,
                  "didChangeConfiguration": {"dynamicRegistration": False}},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "willSave": False, "didSave": True},
        "publishDiagnostics": {"relatedInformation": True},
        "codeAction": {"dynamicRegistration": False, "codeActionLiteralSupport": {"codeActionKind": {"valueSet": []}}},
    },
}


def _ale_diagnostic(published: dict) -> dict:
    """A published diagnostic as ALE sends it back: through its location list and out again."""
    start, end = published["range"]["start"], published["range"]["end"]
    lnum, col, end_lnum, end_col = start["line"] + 1, start["character"] + 1, end["line"] + 1, end["character"]
    return {"code": published["code"], "message": " ".join(published["message"].splitlines()),
            "range": {"start": {"line": lnum - 1, "character": col - 1},
                      "end": {"line": end_lnum - 1, "character": end_col}}}


def _word_range(line: int, text: str, word: str) -> dict:
    """ALE's request range for the cursor on `word`: the word's first byte to its last (exclusive end)."""
    column = SOURCE.splitlines()[line].index(text) + text.index(word)
    return {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + len(word)}}


async def _session(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path, path.as_uri()


async def _open(client, uri: str) -> list[dict]:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                           "text": SOURCE}})
    return (await client.wait_published(uri, 1))["diagnostics"]


async def _code_actions(client, uri: str, range_: dict, diagnostics: list[dict]) -> list[dict]:
    reply = await client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": range_, "context": {"diagnostics": diagnostics}})
    assert "error" not in reply, reply
    return reply["result"] or []


def _quick(actions: list[dict]) -> list[dict]:
    """The quick fixes; the file also has a safe fix, so fix-all comes with every answer."""
    assert [a["kind"] for a in actions if a["kind"] != "quickfix"] == ["source.fixAll.gradguard"]
    return [a for a in actions if a["kind"] == "quickfix"]


def _fixed(action: dict, uri: str) -> str:
    assert "documentChanges" not in action["edit"]  # ALE did not ask for them
    edits = [types.TextEdit(types.Range(types.Position(**e["range"]["start"]), types.Position(**e["range"]["end"])),
                            e["newText"]) for e in action["edit"]["changes"][uri]]
    return apply_text_edits(SOURCE, edits)


def _by_code(published: list[dict], code: str) -> dict:
    return next(d for d in published if d["code"] == code)


async def test_ale_diagnostic_without_source_gets_its_quick_fixes(tmp_path):
    _, uri = await _session(tmp_path)
    async with raw_session(tmp_path, ALE_CAPABILITIES) as client:
        published = await _open(client, uri)
        numpy = _by_code(published, "GG101")
        sent = _ale_diagnostic(numpy)
        assert "source" not in sent and "data" not in sent
        actions = _quick(await _code_actions(client, uri, _word_range(LOSS_LINE, ".numpy()", "numpy"), [sent]))
    titles = [a["title"] for a in actions]
    assert titles == ["gradguard (GG101): Remove `.numpy()` (unsafe fix)", "gradguard: Ignore GG101 for this line"]
    fixed = _fixed(actions[0], uri)
    assert "tf.reduce_mean(model(x))\n" in fixed
    # The loss has a gradient again through the other term; the np.round term is still cut, now a
    # dead term of the sum (a warning: it adds nothing to the gradient).
    after = {d.code: d.severity.value for d in analyze(fixed)}
    assert after == {"GG306": "error", "GG102": "warning"}
    assert "# gradguard: ignore[GG101]" in _fixed(actions[1], uri)


async def test_without_context_diagnostics_the_findings_under_the_cursor_are_offered(tmp_path):
    _, uri = await _session(tmp_path)
    async with raw_session(tmp_path, ALE_CAPABILITIES) as client:
        await _open(client, uri)
        on_round = _quick(await _code_actions(client, uri, _word_range(LOSS_LINE, "np.round", "round"), []))
        on_numpy = _quick(await _code_actions(client, uri, _word_range(LOSS_LINE, ".numpy()", "numpy"), []))
        on_tape = _quick(await _code_actions(client, uri, _word_range(7, "y, x)", "x"), []))
        elsewhere = _quick(await _code_actions(client, uri, _word_range(3, "Sequential", "Sequential"), []))
    assert [a["title"] for a in on_round][-1] == "gradguard: Ignore GG102 for this line"
    assert all("GG102" in a["title"] for a in on_round) and len(on_round) == 3  # two fixes and Ignore
    assert [a["title"] for a in on_numpy] == ["gradguard (GG101): Remove `.numpy()` (unsafe fix)",
                                              "gradguard: Ignore GG101 for this line"]
    assert any(a["title"].startswith("gradguard (GG306)") for a in on_tape)
    assert "tape.watch(x)" in _fixed(next(a for a in on_tape if "(GG306)" in a["title"]), uri)
    assert elsewhere == []


async def test_another_tools_diagnostic_gets_no_gradguard_ignore_but_ours_under_the_cursor(tmp_path):
    # ALE sends the nearest diagnostic of any linter; pyright's code is not ours.
    _, uri = await _session(tmp_path)
    async with raw_session(tmp_path, ALE_CAPABILITIES) as client:
        await _open(client, uri)
        foreign = {"code": "reportAttributeAccessIssue", "message": "Cannot access attribute",
                   "range": _word_range(LOSS_LINE, ".numpy()", "numpy")}
        on_numpy = _quick(await _code_actions(client, uri, _word_range(LOSS_LINE, ".numpy()", "numpy"), [foreign]))
        line_3 = {"code": "E501", "message": "line too long", "range": _word_range(3, "Sequential", "Sequential")}
        elsewhere = _quick(await _code_actions(client, uri, _word_range(3, "Sequential", "Sequential"), [line_3]))
    assert [a["title"] for a in on_numpy] == ["gradguard (GG101): Remove `.numpy()` (unsafe fix)",
                                              "gradguard: Ignore GG101 for this line"]
    assert elsewhere == []  # no "Ignore E501" from gradguard


async def test_a_range_clamped_by_the_client_still_matches_by_code_and_line(tmp_path):
    # ALE moves an end past the buffer's last line onto it, and drops the end column of others.
    _, uri = await _session(tmp_path)
    async with raw_session(tmp_path, ALE_CAPABILITIES) as client:
        published = await _open(client, uri)
        sent = _ale_diagnostic(_by_code(published, "GG102"))
        sent["range"]["end"] = {"line": sent["range"]["start"]["line"], "character": sent["range"]["start"]["character"] + 1}
        actions = _quick(await _code_actions(client, uri, _word_range(LOSS_LINE, "np.round", "round"), [sent]))
        same_code_other_line = dict(sent, range=_word_range(3, "Sequential", "Sequential"))
        none = _quick(await _code_actions(client, uri, _word_range(3, "Sequential", "Sequential"), [same_code_other_line]))
    assert len(actions) == 3 and all("GG102" in a["title"] for a in actions)
    assert "tf.stop_gradient" in _fixed(actions[0], uri)
    assert none == []


async def test_of_two_findings_of_one_code_on_one_line_the_range_says_which(tmp_path):
    # Two GG101 on one line, both `.numpy()` of a model output: only the second one's fix is offered.
    source = SOURCE.replace("tf.reduce_mean(np.round(model(x)))", "tf.reduce_mean(model(x).numpy())")
    path = tmp_path / "train.py"
    path.write_text(source, encoding="utf-8")
    uri = path.as_uri()
    async with raw_session(tmp_path, ALE_CAPABILITIES) as client:
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                               "text": source}})
        published = [d for d in (await client.wait_published(uri, 1))["diagnostics"] if d["code"] == "GG101"]
        assert len(published) == 2 and published[0]["range"] != published[1]["range"]
        second = _ale_diagnostic(published[1])
        actions = _quick(await _code_actions(client, uri, second["range"], [second]))
    fixes = [a for a in actions if "Remove" in a["title"]]
    assert len(fixes) == 1
    edit = fixes[0]["edit"]["changes"][uri][0]
    assert edit["range"]["start"]["character"] >= published[1]["range"]["start"]["character"]
