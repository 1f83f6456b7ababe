"""`gradguard explain FILE:LINE[:COL]`: why the analysis decided what it did at one place.

For the `tape.gradient`, `minimize`, `fit` or loss function at the position (or, where there is
none, the expression), a small tree: each requested source, whether it gets a gradient, the
statements from the model call that starts it to the loss, the break or the missing link, and the
diagnostic that reports it. In a notebook the position is `FILE.ipynb:cellN:LINE[:COL]`, N the
cell's number among all the notebook's cells (as `check` prints positions).

Exit codes: 0 every source gets a gradient, 1 some do not, 2 bad input (no such file, line or
cell, nothing to explain there, a file that does not parse). A source that gets its gradient while
a term of the loss is cut on its way (a diagnostic `check` reports, usually a warning) still exits
0: the tree ends with a "⚠" line and the JSON lists it under "warnings".
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .. import api
from ..diagnostics import Span
from ..model.inference import Budget, JediResolver
from ..model.record import recording
from ..project.config import load_config, load_config_file
from ..project.files import import_root
from ..source.notebook import Notebook, NotebookError, relabel_lines
from .files import decode
from .output import place

if TYPE_CHECKING:  # the lens is imported when something is explained, not by every `gradguard` start
    from ..lens.explanation import SinkExplanation
    from ..lens.lens import Lens

_POSITION = re.compile(r"^(?P<path>.+?):(?:cell\s*(?P<cell>\d+):)?(?P<line>\d+)(?::(?P<col>\d+))?$")


class BadInput(Exception):
    """Reported in one line, exit 2."""


def run_explain(args: argparse.Namespace, error) -> int:
    try:
        report = explain(args.position, args.config, jedi=not args.no_jedi)
    except BadInput as problem:
        error(f"explain: {problem}")
        return 2
    if args.format == "json":
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print("\n".join(report["tree"]))
    return 0 if report["ok"] else 1


def explain(position: str, config_file: str | None = None, jedi: bool = True) -> dict:
    """The explanation at `position` as a JSON-ready dict; its "tree" is the text output's lines."""
    from ..lens.lens import Lens
    from ..lens.tree import draw

    match = _POSITION.match(position)
    if match is None:
        raise BadInput(f"expected FILE:LINE[:COL] (or FILE.ipynb:cellN:LINE[:COL]), got {position!r}")
    display = match["path"]
    path = Path(display)
    try:
        document = decode(display, path, path.read_bytes())
    except OSError as failure:
        raise BadInput(f"cannot read {display}: {failure.strerror or failure}") from None
    except UnicodeError as failure:
        raise BadInput(f"{display}: {failure}") from None
    notebook = None
    source = document.text
    if document.is_notebook:
        try:
            notebook = Notebook(document.text)
        except NotebookError as failure:
            raise BadInput(f"{display}: {failure}") from None
        source = notebook.source
    line, col = _joined_position(match, notebook, source, display)
    config = load_config_file(Path(config_file)) if config_file else load_config(path.resolve().parent)[0]
    cross_module = {}
    if jedi and config.jedi:  # as `check` follows calls into other modules, so its findings are these
        cross_module = {"resolver": JediResolver(str(import_root(path))),
                        "budget": Budget(config.jedi_time_budget)}
    with recording() as recorder:
        diagnostics = api.lint(source, display, config, str(path), **cross_module)
    syntax = next((d for d in diagnostics if d.code == "E999"), None)
    if recorder.analysis is None or (syntax is not None and notebook is None):
        raise BadInput(f"{display}: does not parse ({syntax.message if syntax else 'no analysis'}); nothing to explain")
    lens = Lens(recorder.analysis, recorder.values, diagnostics)

    def at(span: Span) -> str:
        shown = place(notebook or source, span.line, span.col)
        return f"{'cell %d:' % shown.cell if shown.cell else ''}{shown.line}:{shown.col + 1}"

    def relabel(text: str) -> str:
        return relabel_lines(text, notebook.cell_of_line) if notebook is not None else text

    def where(span: Span) -> dict:
        shown = place(notebook or source, span.line, span.col)
        return {"cell": shown.cell, "line": shown.line, "column": shown.col + 1}

    here = f"{display}:{at(Span(line, col or 0, line, col or 0))}" if col is not None else \
        f"{display}:{at(Span(line, 0, line, 0)).rsplit(':', 1)[0]}"
    sink = lens.sink_at(line, col)
    node = lens.value_at(line, col) if col is not None else None
    if sink is not None and node is not None and node is not sink.node and not _on_callee(lens, sink, node):
        sink = None  # a column on an argument (`loss` in `tape.gradient(loss, ...)`): that value
    if sink is not None:
        return _sink_report(lens.explain_sink(sink, at), display, here, lens.doc.span(sink.node), at, where, relabel)
    node = node or lens.value_at(line, col)
    if node is None:
        raise BadInput(f"nothing to explain at {here}: no tape.gradient, minimize, fit, loss function or value "
                       f"with a gradient dependency there")
    explained = lens.explain_value(node, at)
    text = lens.doc.short(node, 60)
    ok = all(good for good, _, _ in explained)
    tree = [f"{here}: `{text}`"] + draw([(f"{'✓' if good else '✗'} {words}", []) for good, words, _ in explained])
    return {"path": display, "kind": "value", "expression": text, "at": where(lens.doc.span(node)), "ok": ok,
            "origins": [{"gradient": good, "text": words} for good, words, _ in explained], "tree": tree}


def _on_callee(lens: Lens, sink, node) -> bool:
    """`node` is (in) the called function of the sink's call: `tape.gradient` itself."""
    func = getattr(sink.node, "func", None)
    return func is not None and lens.doc.span(func).contains(lens.doc.span(node))


def _joined_position(match: re.Match, notebook: Notebook | None, source: str, display: str) -> tuple[int, int | None]:
    """The 1-based line and 0-based column in the analysed (joined) source."""
    line = int(match["line"])
    col = int(match["col"]) - 1 if match["col"] else None
    if col is not None and col < 0:
        raise BadInput(f"columns start at 1, got {match['col']}")
    if notebook is not None:
        if match["cell"] is None:
            raise BadInput(f"{display} is a notebook: give the cell, as in {display}:cell3:{line}")
        number = int(match["cell"])
        cell = next((c for c in notebook.cells if c.index == number - 1), None)
        if cell is None:
            raise BadInput(f"{display} has no code cell {number}")
        if not 1 <= line <= max(cell.line_count, 1):
            raise BadInput(f"{display}: cell {number} has {cell.line_count} lines, no line {line}")
        indent = cell.python.indents[line - 1] if line <= len(cell.python.indents) else ""
        return cell.first_line + line - 1, None if col is None else max(col - len(indent), 0)
    if match["cell"] is not None:
        raise BadInput(f"{display} is not a notebook: give FILE:LINE[:COL]")
    lines = source.splitlines() or [""]
    if not 1 <= line <= len(lines):
        raise BadInput(f"{display} has {len(lines)} lines, no line {line}")
    return line, col


def _sink_report(explanation: SinkExplanation, display: str, here: str, span: Span, at, where, relabel) -> dict:
    from ..lens.tree import sink_branches

    sources = []
    for source in explanation.sources:
        sources.append({
            "name": source.origin.name, "part": source.origin.part, "variables": source.origin.variables_text(), "verdict": source.verdict.value,
            "gradient": source.ok, "summary": relabel(source.summary), "reason": relabel(source.reason) if source.reason else None,
            "start": where(source.start) if source.start else None,
            "steps": [{**where(step.span), "text": step.text, "start": step.start, "cut": step.cut} for step in source.steps],
            "break": {"code": source.brk.code, "label": source.brk.label, **where(source.brk.via or source.brk.span)}
            if source.brk else None,
            "diagnostic": {"code": source.diagnostic.code, "message": relabel(source.diagnostic.message),
                           **where(source.diagnostic.span)} if source.diagnostic else None,
            "term_cut": source.term_cut,
        })
    sink = explanation.sink
    title = relabel(explanation.title)
    tree = [f"{here}: {title}"] + sink_branches(explanation, at, relabel)
    return {"path": display, "kind": "sink", "sink": sink.kind.value, "callee": sink.callee, "at": where(span),
            "title": title,
            "ok": explanation.ok, "sources": sources, "tree": tree,
            "warnings": [{"code": d.code, "severity": d.severity.value, "message": relabel(d.message), **where(d.span)}
                         for d in explanation.warnings]}
