"""`textDocument/inlayHint` (LSP 3.17) and its `textDocument/codeLens` fallback: the gradient lens
after each sink (issue 16).

After each `tape.gradient(...)`, `optimizer.minimize(...)`, `model.fit(...)` and at each loss
function: which requested sources get a gradient (`✓ q_net`, `✗ target_net: loss never uses it`,
`2 of 3 sources`), each source's words in the tooltip. A client without inlay hints (Neovim 0.7,
Eglot 1.9) gets the same labels as code lenses above the line; one with them gets no code lens.
Both answer from the analysis the diagnostics came from (hover.lens_result).
"""
from __future__ import annotations

from lsprotocol import types

from gradguard.rules.diagnostics import Span

from . import analysis
from .analysis import Result
from .hover import lens_result, linker
from .state import GradguardServer, server


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
async def inlay_hints(ls: GradguardServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    result = await lens_result(ls, uri, lambda settings: settings.lens_inlay_hints)
    if result is None:
        return []
    out = []
    for position, label, tooltip in _hints(result, uri):
        if _in_range(position, params.range):
            out.append(types.InlayHint(position, label, tooltip=tooltip, padding_left=True))
    return out


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
async def code_lenses(ls: GradguardServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    if ls.supports("text_document", "inlay_hint"):
        return []  # the inlay hints say it, after the call
    uri = params.text_document.uri
    result = await lens_result(ls, uri, lambda settings: settings.lens_inlay_hints)
    if result is None:
        return []
    lenses = []
    for position, label, _ in _hints(result, uri):
        line = types.Range(types.Position(position.line, 0), types.Position(position.line, 0))
        lenses.append(types.CodeLens(line, types.Command(f"gradguard:{label}", "")))
    return lenses


def _hints(result: Result, uri: str) -> list[tuple[types.Position, str, str]]:
    """(client position, label, tooltip) of the unit's hints that fall in `uri`."""
    snap = result.snapshot
    out = []
    for line, col, label, tooltip in result.lens.hints(linker(result, links=False)):
        located = analysis.locate(Span(line, col, line, col), snap)
        if located is not None and located[0].uri == uri:
            out.append((located[1].start, f" {label}", tooltip))
    return out


def _in_range(position: types.Position, range_: types.Range) -> bool:
    return (range_.start.line, range_.start.character) <= (position.line, position.character) <= (
        range_.end.line, range_.end.character)
