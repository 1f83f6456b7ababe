"""`textDocument/inlayHint` (LSP 3.17) and its `textDocument/codeLens` fallback: the gradient lens
after each sink (issue 16).

After each `tape.gradient(...)`, `optimizer.minimize(...)`, `model.fit(...)` and at each loss
function: which requested sources get a gradient (`✓ q_net`, `✗ target_net: loss never uses it`,
`2 of 3 sources`), each source's words in the tooltip. A client without inlay hints (Neovim 0.7,
Eglot 1.9) gets the same labels as code lenses above the line; one with them gets no code lens.
Both answer from the analysis the diagnostics came from (hover.lens_result).

Clicking a code lens runs `gradguard.explain` (workspace/executeCommand, arguments: the URI and
the sink's position): the server answers with the tree `gradguard explain` prints for that sink
(title, ok, tree, warnings) and shows it with window/showMessage, since clients drop a command's
result (a third argument `{"show": false}` asks for the answer alone).
"""
from __future__ import annotations

from lsprotocol import types

from gradguard.rules.diagnostics import Span
from gradguard.rules.source.notebook import relabel_lines

from . import analysis
from .analysis import Result
from .hover import joined_position, lens_result, linker
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
    lenses = {}
    for position, label, _, sink in _hints(result, uri, with_sinks=True):
        if (position.line, label) in lenses:
            continue
        line = types.Range(types.Position(position.line, 0), types.Position(position.line, 0))
        # Clicking it explains the sink: the arguments are where the sink's call starts.
        start = analysis.locate(result.lens.doc.span(sink.node), result.snapshot)
        arguments = [start[0].uri, {"line": start[1].start.line, "character": start[1].start.character}] \
            if start is not None else None
        lenses[(position.line, label)] = types.CodeLens(
            line, types.Command(f"gradguard:{label}", EXPLAIN_COMMAND if arguments else "", arguments=arguments))
    return [lenses[key] for key in sorted(lenses)]


EXPLAIN_COMMAND = "gradguard.explain"


@server.command(EXPLAIN_COMMAND)
async def explain_command(ls: GradguardServer, *args) -> dict | None:
    """The explain tree of the sink at a position (what the code lens summarises); the arguments
    are the URI, the position ({"line", "character"}) and optionally {"show": false}."""
    uri, position, options = (list(args) + [None, None, None])[:3]
    if not isinstance(uri, str) or ls.store.get(uri) is None or not isinstance(position, dict):
        raise ValueError(f"{EXPLAIN_COMMAND} expects the URI of an open document and a position, got {uri!r}, "
                         f"{position!r}")
    result = await lens_result(ls, uri, lambda settings: settings.lens_hover or settings.lens_inlay_hints)
    if result is None:
        return None
    where = joined_position(result, uri, types.Position(int(position.get("line", 0)),
                                                        int(position.get("character", 0))))
    sink = result.lens.sink_at(*where) if where is not None else None
    if sink is None:
        return None
    snap = result.snapshot
    at = linker(result, links=False)

    def relabel(text: str) -> str:  # "on line N" of the joined cells, as the cell and its line
        return relabel_lines(text, lambda line: analysis._cell_of_line(line, snap)) if snap.notebook else text

    from gradguard.rules.lens.tree import sink_branches

    explanation = result.lens.explain_sink(sink, at)
    title = relabel(explanation.title)
    tree = [title] + sink_branches(explanation, at, relabel)
    if not (isinstance(options, dict) and options.get("show") is False):
        ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, "gradguard: " + "\n".join(tree)))
    return {"title": title, "ok": explanation.ok, "tree": tree,
            "warnings": [{"code": d.code, "message": relabel(d.message)} for d in explanation.warnings]}


def _hints(result: Result, uri: str, with_sinks: bool = False) -> list[tuple]:
    """(client position, label, tooltip[, sink]) of the unit's hints that fall in `uri`."""
    snap = result.snapshot
    at = linker(result, links=False)
    found = result.lens.sink_hints(at) if with_sinks else result.lens.hints(at)
    out = []
    for line, col, label, tooltip, *sink in found:
        located = analysis.locate(Span(line, col, line, col), snap)
        if located is not None and located[0].uri == uri:
            out.append((located[1].start, f" {label}", tooltip, *sink))
    return out


def _in_range(position: types.Position, range_: types.Range) -> bool:
    return (range_.start.line, range_.start.character) <= (position.line, position.character) <= (
        range_.end.line, range_.end.character)
