"""Code actions: each diagnostic's fixes, "Ignore GGxxx for this line", fix-all and its command.

Quick fixes come from the fixes a diagnostic carries in its `data` (no new analysis); when a
client does not send `data` back, or the document moved on since, they come from the analysis of
the current text. A client's copy without `source` (Vim's ALE) is matched to our diagnostic by
code and range; with no diagnostic of ours in the context, the findings overlapping the requested
range are offered (tests/lsp/test_lsp_ale.py). A rule's real fixes come first — the one that brings the gradient back is
preferred — then its "Ignore" action. Fix-all applies safe fixes only; it is computed lazily
through `codeAction/resolve` when the client can resolve edits, else in the first reply.
"""
from __future__ import annotations

import asyncio

from lsprotocol import types

from gradguard.rules.fix.edits import chosen_fix

from . import analysis
from .state import GradguardServer, log, server

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.gradguard"
FIX_ALL_COMMAND = "gradguard.applyFixAll"


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=True),
)
async def code_actions(ls: GradguardServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    if ls.store.get(uri) is None:
        return []
    target = ls.store.target_of(uri)
    settings = ls.settings_for(target)
    if not settings.enable:
        return []
    wanted = _kind_filter(params.context.only)
    out: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix):
        for diagnostic in await _diagnostics_to_fix(ls, uri, params):
            out.extend(await _fix_actions(ls, uri, diagnostic))
            if settings.ignore_actions:
                out.extend(_ignore_action(ls, uri, diagnostic))
    if wanted(FIX_ALL_KIND) and settings.fix_all and await _has_safe_fix(ls, target):
        out.append(await _fix_all_action(ls, uri))
    return out


def _kind_filter(only: list[str] | None):
    """Whether a kind was asked for: `only` lists kinds or their parents ("source" covers fix-all)."""
    if not only:
        return lambda kind: True
    return lambda kind: any(kind == k or kind.startswith(f"{k}.") for k in map(str, only))


# -- which diagnostics the client asks about ------------------------------------------------------


async def _diagnostics_to_fix(ls: GradguardServer, uri: str, params: types.CodeActionParams) -> list[types.Diagnostic]:
    """The diagnostics to offer quick fixes for, each once.

    A diagnostic that says it is gradguard's is taken as it is (its `data` carries the fixes).
    Clients that send their own copy without `source` or `data` (Vim's ALE sends `code`, `message`
    and `range`; it joins the lines of the message) get it matched to one of ours by code and
    range, the message deciding between equals; another tool's diagnostic matches none of ours.
    When the context names none of ours at all (no diagnostics, or only other tools'), the
    findings whose range overlaps the requested range are offered, as if the client had sent them.
    """
    context = params.context.diagnostics or []
    chosen: list[types.Diagnostic] = []
    unsourced = []
    for diagnostic in context:
        if not isinstance(diagnostic.code, str):
            continue
        if diagnostic.source == analysis.SOURCE:
            chosen.append(diagnostic)
        elif not diagnostic.source:
            unsourced.append(diagnostic)
    if chosen and not unsourced:
        return chosen
    result = await ls.current_result(ls.store.target_of(uri))
    ours = result.by_uri.get(uri, []) if result is not None else []
    for diagnostic in unsourced:
        match = _match(diagnostic, ours)
        if match is not None:
            chosen.append(match)
    matched = len(chosen)
    if not chosen:
        chosen = [d for d in ours if _overlaps(d.range, params.range)]
    log.debug("code actions for %s: %d context diagnostic(s), %d without source; %d taken from the context, %d under the range",
              uri, len(context), len(unsourced), matched, len(chosen) - matched)
    return _unique(chosen)


def _match(theirs: types.Diagnostic, ours: list[types.Diagnostic]) -> types.Diagnostic | None:
    """Our diagnostic the client's copy stands for: same code, then the same range, else the same
    start line and an overlapping range (ALE clamps a range to the buffer); the message (lines
    joined) decides between several."""
    same_code = [d for d in ours if d.code == theirs.code]
    candidates = [d for d in same_code if d.range == theirs.range] or [
        d for d in same_code if d.range.start.line == theirs.range.start.line and _overlaps(d.range, theirs.range)]
    if not candidates:
        return None
    message = _words(theirs.message)
    return next((d for d in candidates if _words(d.message) == message), candidates[0])


def _words(message: str) -> list[str]:
    return (message or "").split()


def _overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges share a position; ends count, so a cursor at either end of a finding is on it."""
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character
    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _unique(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    seen, out = set(), []
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.range.start.line, diagnostic.range.start.character,
               diagnostic.range.end.line, diagnostic.range.end.character, diagnostic.message)
        if key not in seen:
            seen.add(key)
            out.append(diagnostic)
    return out


# -- quick fixes ---------------------------------------------------------------------------------


async def _fix_actions(ls: GradguardServer, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    fixes = _fixes_in(diagnostic.data)
    if fixes is not None and _versions_current(ls, fixes):
        try:
            return _quick_fixes(ls, diagnostic, fixes)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # `data` came back mangled: the analysis of the current text knows the fixes
    return _quick_fixes(ls, diagnostic, await _fixes_from_analysis(ls, uri, diagnostic))


def _quick_fixes(ls: GradguardServer, diagnostic: types.Diagnostic, fixes: list[dict]) -> list[types.CodeAction]:
    ordered = sorted(fixes, key=lambda fix: not fix.get("preferred"))  # stable: rule order otherwise
    return [
        types.CodeAction(
            title=f"gradguard ({diagnostic.code}): {fix['title']}" + ("" if fix.get("safe") else " (unsafe fix)"),
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=bool(fix.get("preferred")),
            edit=workspace_edit(ls, fix["edits"]),
        )
        for fix in ordered
    ]


def _fixes_in(data: object) -> list[dict] | None:
    """The fixes carried in a diagnostic's data, or None when the client sent none back."""
    if not isinstance(data, dict) or not isinstance(data.get("fixes"), list):
        return None
    fixes = data["fixes"]
    valid = all(isinstance(f, dict) and isinstance(f.get("title"), str) and isinstance(f.get("edits"), list)
                for f in fixes)
    return fixes if valid else None


def _versions_current(ls: GradguardServer, fixes: list[dict]) -> bool:
    for fix in fixes:
        for edit in fix["edits"]:
            if not isinstance(edit, dict):
                return False
            document = ls.store.get(edit.get("uri", ""))
            if document is None or document.version != edit.get("version"):
                return False
    return True


async def _fixes_from_analysis(ls: GradguardServer, uri: str, wanted: types.Diagnostic) -> list[dict]:
    result = await ls.current_result(ls.store.target_of(uri))
    if result is None:
        return []
    for diagnostic in result.by_uri.get(uri, []):
        if diagnostic.code == wanted.code and diagnostic.range == wanted.range:
            return diagnostic.data["fixes"]
    return []


def workspace_edit(ls: GradguardServer, edits: list[dict]) -> types.WorkspaceEdit:
    """Edits given as {"uri", "version", "range", "newText"} dicts, as the client can take them."""
    by_uri: dict[str, list[types.TextEdit]] = {}
    versions: dict[str, int | None] = {}
    for edit in edits:
        text_edit = types.TextEdit(range=_range(edit["range"]), new_text=edit["newText"])
        by_uri.setdefault(edit["uri"], []).append(text_edit)
        versions[edit["uri"]] = edit.get("version")
    if ls.supports("workspace", "workspace_edit", "document_changes"):
        return types.WorkspaceEdit(document_changes=[
            types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri, versions[uri]), text_edits)
            for uri, text_edits in by_uri.items()
        ])
    return types.WorkspaceEdit(changes=by_uri)


def _range(data: dict) -> types.Range:
    """A range from its JSON form, as fixes carry it in a diagnostic's `data`."""
    start, end = data["start"], data["end"]
    return types.Range(types.Position(start["line"], start["character"]), types.Position(end["line"], end["character"]))


# -- "Ignore GGxxx for this line" ----------------------------------------------------------------


def _ignore_action(ls: GradguardServer, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    document = ls.store.get(uri)
    from gradguard.rules.report.suppression import suppression_edit

    line = diagnostic.range.start.line
    try:
        edit = suppression_edit(document.text, line + 1, diagnostic.code)
    except ValueError:
        return []  # the line cannot take a comment (inside a multi-line string, after a backslash)
    start = document.position_at(edit.span.line - 1, edit.span.col, ls.encoding)
    end = document.position_at(edit.span.end_line - 1, edit.span.end_col, ls.encoding)
    edits = [{"uri": uri, "version": document.version, "range": analysis.range_json(types.Range(start, end)),
              "newText": edit.new_text}]
    return [types.CodeAction(
        title=f"gradguard: Ignore {diagnostic.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=workspace_edit(ls, edits),
    )]


# -- fix-all ---------------------------------------------------------------------------------------


async def _has_safe_fix(ls: GradguardServer, target: str) -> bool:
    result = await ls.current_result(target)
    return result is not None and any(chosen_fix(d, unsafe=False) for d in result.diagnostics)


async def _fix_all_action(ls: GradguardServer, uri: str) -> types.CodeAction:
    action = types.CodeAction(title="gradguard: Fix all safe fixes", kind=FIX_ALL_KIND, data={"uri": uri})
    if ls.supports("text_document", "code_action", "resolve_support"):
        properties = ls.caps.text_document.code_action.resolve_support.properties or []
        if "edit" in properties:
            return action  # the edit comes with codeAction/resolve
    return await resolve(ls, action)


@server.feature(types.CODE_ACTION_RESOLVE)
async def resolve(ls: GradguardServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    if action.kind == FIX_ALL_KIND and isinstance(uri, str):
        action.edit = await fix_all_edit(ls, uri) or types.WorkspaceEdit(changes={})
    return action


async def fix_all_edit(ls: GradguardServer, uri: str) -> types.WorkspaceEdit | None:
    """Every safe fix of the document (all cells of its notebook), or None when there is none."""
    snap = ls.take_snapshot(ls.store.target_of(uri))
    if snap is None:
        return None
    texts = await asyncio.get_running_loop().run_in_executor(None, analysis.fixed_texts, snap)
    edits = []
    for part, text in zip(snap.parts, texts):
        edit = analysis.text_edit(part.document, text, ls.encoding)
        if edit is not None:
            edits.append({"uri": part.uri, "version": part.version, "range": analysis.range_json(edit.range),
                          "newText": edit.new_text})
    return workspace_edit(ls, edits) if edits else None


@server.command(FIX_ALL_COMMAND)
async def apply_fix_all(ls: GradguardServer, uri: str | None = None, *args) -> None:
    """Apply every safe fix to a document (the editor's "gradguard: Fix All")."""
    if not isinstance(uri, str) or ls.store.get(uri) is None:
        raise ValueError(f"{FIX_ALL_COMMAND} expects the URI of an open document, got {uri!r}")
    edit = await fix_all_edit(ls, uri)
    if edit is None:
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, "gradguard: nothing to fix"))
        return
    await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit, label="gradguard: fix all"))
