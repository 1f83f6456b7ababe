"""The JSON of published diagnostics, made once per diagnostic and not once per publication.

A keystroke's publication holds every diagnostic of the file, nearly all of them the very objects
of the last one (`analysis.LspForms` keeps the LSP form of each kept diagnostic). Encoding them
all again cost a 5,000-line file's keystroke 0.25-0.45 ms (29-49 kB for 45 diagnostics): the text
of each is kept here and a publication's body is their join. A diagnostic's fixes carry the
document's version, new at each keystroke: its text is kept as a template around the versions.
"""
from __future__ import annotations

import json

from lsprotocol import types

# A version no document has: where a template's versions go.
_SENTINEL = -9007199254740991
_SENTINEL_TEXT = f'"version": {_SENTINEL}'  # as json.dumps writes it (no string holds a bare quote)


class _Json:
    """One LSP diagnostic's JSON: its unstructured form, its text, and the text's pieces around
    its fixes' versions with those edits' URIs (None until made)."""

    __slots__ = ("form", "text", "pieces", "uris")

    def __init__(self, form: dict | None = None, text: str | None = None, pieces=None, uris=None) -> None:
        self.form, self.text, self.pieces, self.uris = form, text, pieces, uris


# By id of the LSP diagnostic (kept alive with it). Entries are added and removed in the fast
# pass's thread; where the server writes its messages an entry's fields are only filled (an entry
# removed meanwhile is only slower, never wrong).
_JSON: dict[int, tuple[types.Diagnostic, _Json]] = {}


def remember(lsp: types.Diagnostic) -> None:
    _JSON.setdefault(id(lsp), (lsp, _Json()))


def forget(ids) -> None:
    for key in ids:
        _JSON.pop(key, None)


def _known(lsp: types.Diagnostic) -> _Json | None:
    known = _JSON.get(id(lsp))
    return known[1] if known is not None and known[0] is lsp else None


def with_versions(old: types.Diagnostic, new: types.Diagnostic, data: dict, versions: dict[str, int]) -> None:
    """`new` is `old` with `data`, its fixes for the documents' `versions`: its JSON is `old`'s
    form with that data, and its text `old`'s template with those versions."""
    box = _known(old)
    if box is None or box.form is None:
        return
    text = _fill(box.pieces, [versions[uri] for uri in box.uris]) if box.pieces is not None else None
    _JSON[id(new)] = (new, _Json({**box.form, "data": data}, text, box.pieces, box.uris))


def form_of(lsp: types.Diagnostic, plain) -> dict:
    """`plain(lsp)` (the converter's own hook), made once for a remembered diagnostic."""
    box = _known(lsp)
    if box is None:
        return plain(lsp)
    if box.form is None:
        box.form = plain(lsp)
    return box.form


def text_of(lsp: types.Diagnostic, unstructure) -> str:
    """`json.dumps(unstructure(lsp))`, made once for a remembered diagnostic (`unstructure`: the
    converter's hook, which keeps its form)."""
    box = _known(lsp)
    if box is None:
        return json.dumps(unstructure(lsp))
    if box.text is None:
        form = unstructure(lsp)
        box.text = json.dumps(form)
        box.pieces, box.uris = _template(form)
    return box.text


def _template(form: dict) -> tuple[list[str] | None, list[str] | None]:
    """The text of `form` split where its fixes' versions are, and those edits' URIs."""
    fixes = (form.get("data") or {}).get("fixes") or []
    edits = [edit for fix in fixes for edit in fix["edits"]]
    if not edits:
        return None, None
    blank = {**form, "data": {**form["data"], "fixes": [
        {**fix, "edits": [{**edit, "version": _SENTINEL} for edit in fix["edits"]]} for fix in fixes]}}
    pieces = json.dumps(blank).split(_SENTINEL_TEXT)
    if len(pieces) != len(edits) + 1:
        return None, None
    return pieces, [edit["uri"] for edit in edits]


def _fill(pieces: list[str], versions: list[int]) -> str:
    out = [pieces[0]]
    for version, piece in zip(versions, pieces[1:]):
        out.append(f'"version": {json.dumps(version)}')
        out.append(piece)
    return "".join(out)


def body(notification: types.PublishDiagnosticsNotification, converter) -> str:
    """The notification's JSON, what `json.dumps` of its unstructured form says, from each
    diagnostic's kept text (`converter`: the server's, `lsp_converter`)."""
    params = notification.params
    unstructure = hooks(converter)[1](types.Diagnostic)
    version = "" if params.version is None else f'"version": {json.dumps(params.version)}, '
    diagnostics = ", ".join(text_of(d, unstructure) for d in params.diagnostics)
    return (f'{{"params": {{"uri": {json.dumps(params.uri)}, {version}"diagnostics": [{diagnostics}]}}, '
            f'"method": {json.dumps(notification.method)}, "jsonrpc": {json.dumps(notification.jsonrpc)}}}')


def hooks(converter) -> tuple:
    """The converter's (structure, unstructure) hook getters: cattrs 24+ names them, older
    releases have only the dispatchers."""
    return (getattr(converter, "get_structure_hook", None) or converter._structure_func.dispatch,
            getattr(converter, "get_unstructure_hook", None) or converter._unstructure_func.dispatch)


def lsp_converter():
    """pygls's converter, with the JSON form of a diagnostic the forms keep made once."""
    from pygls.protocol import default_converter

    converter = default_converter()
    plain = hooks(converter)[1](types.Diagnostic)
    converter.register_unstructure_hook(types.Diagnostic, lambda lsp: form_of(lsp, plain))
    return converter
