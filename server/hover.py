"""`textDocument/hover`: the gradient lens on a value (issue 16).

On a name or expression in code a tape records, a loss function or a `train_step`: which
trainable origins it carries the gradient of, which were cut and by what, or that the tape never
recorded it, in the words of `gradguard explain` (rules/lens/words.py), with links to the places
and to the rule's page. Null where there is nothing to say, so other servers' hovers show alone.

It answers from the analysis of the document's current text (model/record.py kept its values):
the last one when it is current, else the one under way; never a new analysis per request.
"""
from __future__ import annotations

from lsprotocol import types

from gradguard.rules.diagnostics import Span
from gradguard.rules.source.notebook import cell_at, cell_column

from . import analysis
from .analysis import Result
from .state import GradguardServer, server


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: GradguardServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    result = await lens_result(ls, uri, lambda settings: settings.lens_hover)
    if result is None:
        return None
    where = joined_position(result, uri, params.position)
    if where is None:
        return None
    found = result.lens.hover_lines(*where, at=linker(result))
    if found is None:
        return None
    title, lines = found
    text = "\n".join([f"**gradguard** · {title}", "", *(f"- {line}" for line in lines)])
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


async def lens_result(ls: GradguardServer, uri: str, wanted) -> Result | None:
    """The current analysis of the unit holding `uri`, when the lens is on and has values."""
    if ls.store.get(uri) is None:
        return None
    target = ls.store.target_of(uri)
    settings = ls.settings_for(target)
    if not settings.enable or not wanted(settings):
        return None
    result = await ls.current_result(target)
    if result is None or result.lens is None:
        return None
    return result


def joined_position(result: Result, uri: str, position: types.Position) -> tuple[int, int] | None:
    """A client position of `uri` as (1-based line, character column) of the analysed source."""
    snap = result.snapshot
    part = next((p for p in snap.parts if p.uri == uri), None)
    if part is None:
        return None
    document = part.document
    if position.line >= document.line_count:
        return None
    col = snap.encoding.column_from_client(document.line(position.line), position.character)
    line = part.first_line + position.line
    if snap.notebook:  # a dedented cell: the joined line lost its indent
        col = max(col - cell_column(snap.source, line, 0), 0)
    return line, col


def linker(result: Result, links: bool = True):
    """`at(span)` for the lens's words: a Markdown link to the place ("cell 3:4:12" in a notebook),
    or the place alone."""
    snap = result.snapshot

    def at(span: Span) -> str:
        located = analysis.locate(span, snap)
        if located is None:
            return f"{span.line}:{span.col + 1}"
        part, range_ = located
        label = f"{range_.start.line + 1}:{range_.start.character + 1}"
        if snap.notebook:
            index = cell_at(span.line, snap.first_lines)
            if index is not None and index < len(snap.cell_numbers):
                label = f"cell {snap.cell_numbers[index]}:{label}"
        if not links:
            return label
        return f"[{label}]({part.uri}#L{range_.start.line + 1},{range_.start.character + 1})"

    return at
