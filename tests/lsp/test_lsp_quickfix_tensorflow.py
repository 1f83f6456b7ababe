"""Every rule's quick fix, taken through the language server as an editor would, then run with TensorFlow.

For each rule whose bad example has a fix: open the example, take the preferred quick fix the
server offers for each gradguard diagnostic in turn (re-sending the text after each, as the editor
does after applying an edit), and execute the final text. TensorFlow must confirm what the rule
promises of its fix: the gradients are back ("ok"), they changed ("differs", GG202), or the
program no longer raises ("noraise").
"""
from __future__ import annotations

import pytest
from lsprotocol import types

from gradguard.rules.catalogue.registry import all_rules
from lsp_harness import apply_text_edits, edits_for, lsp_session, open_file, wait_for_diagnostics

FIXABLE = [rule for rule in all_rules() if rule.fixed_outcome != "nofix"]
MAX_CLICKS = 6


async def _click_preferred_fixes(client, uri: str, text: str) -> tuple[str, list[str]]:
    """Apply the preferred quick fix of the first fixable diagnostic until none is left."""
    version, titles = 1, []
    for _ in range(MAX_CLICKS):
        published = await wait_for_diagnostics(client, uri, version)
        action = await _first_preferred_fix(client, uri, published.diagnostics)
        if action is None:
            return text, titles
        titles.append(action.title)
        text = apply_text_edits(text, edits_for(action.edit, uri))
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
    raise AssertionError(f"still fixing after {MAX_CLICKS} quick fixes: {titles}")


async def _first_preferred_fix(client, uri: str, diagnostics) -> types.CodeAction | None:
    for diagnostic in diagnostics:
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix]),
        ))
        preferred = [a for a in actions or [] if a.is_preferred]
        if preferred:
            return preferred[0]
    return None


@pytest.mark.parametrize("rule", FIXABLE, ids=lambda rule: rule.code)
async def test_quick_fix_through_the_server_brings_gradients_back(rule, tf_harness, tmp_path):
    before = tf_harness.run_program(rule.bad, f"{rule.code}_bad.py")
    async with lsp_session(tmp_path, "visual-studio-code") as client:
        uri = open_file(client, tmp_path / f"{rule.code.lower()}_bad.py", rule.bad)
        fixed, titles = await _click_preferred_fixes(client, uri, rule.bad)
    assert titles, f"the server offered no preferred quick fix for {rule.code}"
    compile(fixed, "fixed.py", "exec")
    after = tf_harness.run_program(fixed, f"{rule.code}_fixed_via_lsp.py")
    context = f"after {titles}:\n{after.describe()}\n{fixed}"
    if rule.fixed_outcome == "noraise":
        assert after.error is None, context
    else:
        assert tf_harness.matches(after, "ok"), context
    if rule.fixed_outcome == "differs":
        assert tf_harness.differs(before, after), context
