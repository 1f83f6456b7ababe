"""The gradient lens: one analysis's recorded values (model/record.py), read by position.

A `Lens` is built from what a recording analysis left (its `Analysis` and the values kept per
node) and the diagnostics reported for it. It answers, without analysing again:

- `sink_at` / `value_at`: the sink (`tape.gradient`, `minimize`, `fit`, a loss function) or the
  expression at a position;
- `explain_sink` / `explain_value`: each requested source (or each origin of the value), whether
  it gets a gradient, the model call that starts it, the statements on the way to the loss, the
  break or the missing link, and the diagnostic that reports it, in the words of words.py;
- `hover_lines` and `hints`: the same, shorter, for the editor (server/hover.py, server/inlay.py).
"""
from __future__ import annotations

import ast

from ..catalogue import registry
from ..diagnostics import Diagnostic, Span
from ..model.facts import Analysis, Sink, SinkKind, TapeInfo, name_key
from ..model.status import OriginStatus, Verdict, sink_status
from ..model.values import Break, Cut, Grad, Kind, Origin, OriginKind, Value
from ..report.breaks import reported_breaks
from . import words
from .places import loss_uses
from .explanation import SinkExplanation, SourceExplanation, Step
from .words import At, plain_at

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)
_COMPOUND = (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If, ast.Try, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef, ast.Match)
_MAX_STEPS = 40


class Lens:
    def __init__(self, analysis: Analysis, values: dict[ast.AST, Value], diagnostics: list[Diagnostic] = ()):
        self.analysis = analysis
        self.doc = analysis.doc
        self.values = values
        self.diagnostics = list(diagnostics)
        self._rules = {rule.code: rule for rule in registry.break_rules()}
        self._by_line: dict[int, list[ast.AST]] | None = None
        self._bindings: dict[str, list[ast.AST]] | None = None
        self._tapes = {id(tape.with_node): tape for tape in analysis.tapes}
        self._scopes: dict[int, ast.AST | None] = {}
        self._lens_scopes: dict[int, list[TapeInfo]] | None = None  # scope → its tapes, for scopes with something to say
        self._break_index: list[tuple[Span, Sink, Origin, Break]] | None = None
        self._uses: dict[int, list[ast.Call]] | None = None

    def release_caches(self, statuses: bool = True) -> "Lens":
        """Drop what the analysis cached on the way and the lens can compute again when asked (the
        document's node lists, parent map and spans, the sinks' statuses): a server keeps one lens
        per open document, and those caches doubled its memory. `statuses=False` keeps the sinks'
        statuses, where something else keeps them alive anyway (an editor's parts, each its own)."""
        self.doc.drop_caches()
        if statuses:
            self.analysis.statuses.clear()
        return self

    def _loss_uses(self) -> dict[int, list[ast.Call]]:
        if self._uses is None:
            self._uses = loss_uses(self.doc, self.analysis.sinks)
        return self._uses

    # -- finding things by position -----------------------------------------------------------

    def sink_at(self, line: int, col: int | None = None) -> Sink | None:
        """The innermost sink at a position (a loss function only on its `def` line); with no column,
        one on that line."""
        found = []
        for sink in self.analysis.sinks:
            span = self.doc.span(sink.node)
            spans = [span]
            if sink.kind is SinkKind.LOSS_FUNCTION:  # its `def` line, and where `compile` and `fit` use it
                spans = [Span(span.line, span.col, span.line, len(self.doc.lines[span.line - 1]))]
                spans += [self.doc.span(call) for call in self._loss_uses().get(id(sink), [])]
            found.extend((span, sink) for span in spans if _within(span, line, col))
        if not found:
            return None
        return min(found, key=lambda item: _size(item[0]))[1]

    def value_at(self, line: int, col: int | None = None) -> ast.AST | None:
        """The innermost expression with a gradient dependency at a position; with no column, the
        largest one starting on the line."""
        nodes = [node for node in self._index().get(line, ()) if _within(self.doc.span(node), line, col)]
        if not nodes:
            return None
        if col is None:
            starting = [n for n in nodes if self.doc.span(n).line == line] or nodes
            return max(starting, key=lambda n: _size(self.doc.span(n)))
        return min(nodes, key=lambda n: _size(self.doc.span(n)))

    def _index(self) -> dict[int, list[ast.AST]]:
        if self._by_line is None:
            # The node's own lines: a span's lines are the AST's (only its columns are converted),
            # and the first hover of an analysis pays for this index.
            by_line: dict[int, list[ast.AST]] = {}
            for node in self.values:
                first = getattr(node, "lineno", None)
                if first is None:
                    continue
                for line in range(first, (node.end_lineno or first) + 1):
                    by_line.setdefault(line, []).append(node)
            self._by_line = by_line
        return self._by_line

    # -- sinks ----------------------------------------------------------------------------------

    def explain_sink(self, sink: Sink, at: At = plain_at, steps: bool = True) -> SinkExplanation:
        """Each source of `sink`; `steps`: with the statements on the way (explain, not the hints)."""
        status = sink_status(self.analysis, sink)
        sources = []
        for origin, paths in status.items():
            first = self._source(sink, origin, paths, at, steps)
            sources.append(first)
            # Two breaks on one source's paths (`F.assign(Fx)`, `B.assign(Bx)`), each reported: each named.
            sources += [self._source(sink, origin, paths, at, steps, brk) for brk in self._other_breaks(paths, first.brk)]
        return SinkExplanation(sink, sources + self._unwatched(sink) + self._constant_target(sink))

    def _other_breaks(self, paths: OriginStatus, first: Break | None) -> list[Break]:
        if paths.verdict is not Verdict.CUT or first is None or not all(c.brk.code in self._rules for c in paths.cuts):
            return []
        return [c.brk for c in reported_breaks(paths.cuts, self._rules)
                if c.brk != first and self._reported(c.brk.code, c.brk.via or c.brk.span) is not None]

    def _unwatched(self, sink: Sink) -> list[SourceExplanation]:
        """Sources that are plain tensors no tape watched (`tape.gradient(y, x)`), or a Keras model
        given instead of its variables (`tape.gradient(loss, model)`): no origin at all."""
        out = []
        for item in sink.sources or ():
            if item.origins or item.value.kind not in (Kind.TENSOR, Kind.MODEL) or sink.kind is not SinkKind.GRADIENT:
                continue
            span = self.doc.span(item.node)
            name = self.doc.short(item.node, 32)
            origin = Origin(OriginKind.WATCHED, name, f"unwatched:{span.line}:{span.col}", span)
            if item.value.kind is Kind.MODEL:
                diagnostic = self._reported("GG306", span)
                ok = False if diagnostic is not None else None
                reason = (f"a Keras model, not its variables: {sink.named} raises AttributeError "
                          f"(ask for `{self.doc.text(item.node)}.trainable_variables`)")
                out.append(SourceExplanation(origin, Verdict.UNTOUCHED, ok, f"{words.mark(ok)} {name}: {reason}",
                                             reason, None, diagnostic=diagnostic))
                continue
            tape = f"`{sink.tape.name}`" if sink.tape is not None else "the tape"
            reason = f"a plain tensor {tape} never watched"
            diagnostic = self._reported("GG306", span)
            ok = False if diagnostic is not None else None
            if ok is None:  # `tape.watch` in a loop, or of a list: the rule cannot tell which
                reason = f"a plain tensor; {tape} may have watched it (in a loop or a list): cannot tell"
            out.append(SourceExplanation(origin, Verdict.UNTOUCHED, ok, f"{words.mark(ok)} {name}: {reason}", reason,
                                         None, diagnostic=diagnostic))
        return out

    def _constant_target(self, sink: Sink) -> list[SourceExplanation]:
        """Sources of a target that is a constant (`tape.gradient(tf.constant([4.4]), conv)`): None
        for each; those with a variable of their own are said by their origin above."""
        if sink.kind is not SinkKind.GRADIENT or sink.target.role != "constant":
            return []
        nodes = [i.node for i in sink.sources if not i.origins] if sink.sources is not None else \
            [sink.source_node] if sink.source_node is not None else []
        out = []
        for node in dict.fromkeys(nodes):
            span = self.doc.span(node)
            diagnostic = self._reported("GG302", span)
            if diagnostic is None:
                continue
            name = self.doc.short(node, 32)
            origin = Origin(OriginKind.WATCHED, name, f"constant-target:{span.line}:{span.col}", span)
            reason = f"the target `{self.doc.short(sink.target_node, 32)}` is a constant that depends on nothing"
            out.append(SourceExplanation(origin, Verdict.UNTOUCHED, False, f"{words.mark(False)} {name}: {reason}",
                                         reason, None, diagnostic=diagnostic))
        return out

    def _source(self, sink: Sink, origin: Origin, paths: OriginStatus, at: At, steps: bool,
                chosen: Break | None = None) -> SourceExplanation:
        """One source's explanation, naming its first reported break (or `chosen`)."""
        verdict = paths.verdict
        ok = True if verdict is Verdict.LIVE else None if verdict is Verdict.SILENT else False
        brk = chosen
        raising = verdict is Verdict.LIVE and any(c.brk.raises for c in paths.cuts)
        if chosen is None and (verdict in (Verdict.CUT, Verdict.TARGET_ONLY) or raising):
            cuts = [c for c in paths.cuts if c.brk.raises] if verdict is Verdict.LIVE else paths.cuts
            named = reported_breaks(cuts, self._rules) if all(c.brk.code in self._rules for c in cuts) else cuts
            brk = named[0].brk if named else None
            if verdict is Verdict.LIVE and brk is not None:
                ok = False  # an op with no gradient registered: tape.gradient raises
        reason = None if ok else words.reason(verdict, paths, sink, brk, at)
        note = ""
        # A term cut on the way (or before the tape), which a diagnostic reports although others train it.
        if ok and (paths.cuts or paths.untaped_cuts):
            cut = next((c for c in sorted(paths.cuts + paths.untaped_cuts, key=lambda c: c.brk.span)
                        if self._reported(c.brk.code, c.brk.via or c.brk.span)), None)
            if cut is not None:
                brk = cut.brk
                note = f" (a term is {words.cut_by(brk, at)})"
        if brk is not None and brk.raises and verdict is Verdict.LIVE:
            reason = f"{words.cut_by(brk, at)}, which has no gradient registered: {sink.named} raises LookupError"
        grad = self._start(paths, brk)
        diagnostic = self._diagnostic(sink, origin, paths, brk) if ok is False or note else None
        unreported = ok is False and diagnostic is None
        if unreported:
            # The lens says ✗ only where a diagnostic does: what no finding reports (another finding
            # says it better, a rule not selected, a suppression comment) is a "?", as `check` is silent.
            ok = None
        summary = f"{words.mark(ok)} {words.origin_label(origin)}" + (f": {reason}" if reason else note)
        way = self._steps(sink, origin, grad, brk) if grad is not None and steps else []
        return SourceExplanation(origin, verdict, ok, summary, reason, grad.site if grad else None, way, brk,
                                 diagnostic, unreported, bool(note) and diagnostic is not None)

    def _start(self, paths: OriginStatus, brk: Break | None) -> Grad | None:
        if brk is not None:
            cut = next((c for c in paths.cuts + paths.untaped_cuts if c.brk == brk), None)
            if cut is not None:
                return cut.grad
        for grads in (paths.live, paths.untaped, [c.grad for c in paths.cuts]):
            if grads:
                return min(grads, key=lambda g: g.site)
        return None

    def _diagnostic(self, sink: Sink, origin: Origin, paths: OriginStatus, brk: Break | None) -> Diagnostic | None:
        """The diagnostic that reports this source's lost gradient, found where its rule puts it."""
        doc = self.doc
        verdict = paths.verdict
        if brk is not None:
            return self._reported(brk.code, brk.via or brk.span)
        if verdict is Verdict.UNRECORDED and paths.untaped:
            grad = min(paths.untaped, key=lambda g: g.dropped_at or g.site)
            return self._reported("GG301", grad.dropped_at or grad.site)
        if verdict in (Verdict.UNTOUCHED, Verdict.INTEGER):
            code = "GG302" if verdict is Verdict.UNTOUCHED else "GG306"
            for item in sink.sources or ():
                if origin in item.origins and (found := self._reported(code, doc.span(item.node))):
                    return found
            return next((d for d in self.diagnostics if d.code == code
                         and doc.span(sink.node).contains(d.span)), None)
        if verdict is Verdict.REBOUND:
            for rebinding in self.analysis.rebindings.values():
                if rebinding.variable == origin:
                    where = doc.span(rebinding.node)
                    found = next((d for d in self.diagnostics if d.code == "GG304" and where.contains(d.span)), None)
                    if found:
                        return found
        return None

    def _reported(self, code: str, span: Span) -> Diagnostic | None:
        return next((d for d in self.diagnostics if d.code == code and d.span == span), None)

    # -- the way from the start to the loss --------------------------------------------------------

    def _steps(self, sink: Sink, origin: Origin, grad: Grad, brk: Break | None) -> list[Step]:
        """The statements from the gradient's start to the loss, walked back from the loss along the
        expressions whose value depends on `origin` (through `brk`, when it is cut)."""
        doc = self.doc
        stops = {grad.site}
        cut_at = (brk.via or brk.span) if brk is not None else None
        statements: list[ast.AST] = []
        marks: dict[int, set[str]] = {}
        seen: set[int] = set()
        node = self._loss_root(sink)
        while node is not None and id(node) not in seen and len(seen) < _MAX_STEPS * 8:
            seen.add(id(node))
            span = doc.span(node) if getattr(node, "lineno", None) else None
            stmt = self._statement(node)
            if stmt is not None and (not statements or statements[-1] is not stmt):
                if stmt not in statements:
                    statements.append(stmt)
            if span is not None and span == cut_at and stmt is not None:
                marks.setdefault(id(stmt), set()).add("cut")
            if span is not None and span in stops:
                if stmt is not None:
                    marks.setdefault(id(stmt), set()).add("start")
                break
            node = self._next(node, origin, brk)
        steps = []
        for stmt in reversed(statements[:_MAX_STEPS]):
            found = marks.get(id(stmt), set())
            steps.append(Step(doc.span(stmt), doc.short(stmt, 72), "start" in found, "cut" in found))
        if not any(step.start for step in steps) and grad.site.line <= len(doc.lines):
            # The walk lost the way (a parameter, an attribute set elsewhere): the start's own line.
            text = " ".join(doc.lines[grad.site.line - 1].split())
            steps.insert(0, Step(grad.site, text if len(text) <= 72 else text[:71] + "…", start=True))
        return steps

    def _loss_root(self, sink: Sink) -> ast.AST | None:
        target = sink.target_node
        if isinstance(target, ast.Name) and isinstance(self._value_of_name(target), ast.Lambda):
            target = self._value_of_name(target)
        if isinstance(target, ast.Lambda):
            return target.body
        if isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returns = [n for n in ast.walk(target) if isinstance(n, ast.Return) and n.value is not None]
            return returns[-1].value if returns else None
        if isinstance(target, ast.Name) and target.id in {getattr(f, "name", "") for f in self.doc.nodes_of(ast.FunctionDef)}:
            function = next(f for f in self.doc.nodes_of(ast.FunctionDef) if f.name == target.id)
            returns = [n for n in ast.walk(function) if isinstance(n, ast.Return) and n.value is not None]
            return returns[-1].value if returns else None
        return target

    def _value_of_name(self, node: ast.Name) -> ast.AST | None:
        binding = self._binding(node.id, node)
        return binding

    def _relevant(self, value: Value | None, origin: Origin, brk: Break | None) -> int:
        """How well a value leads to `origin`: 2 through the break, 1 live, 0 not at all."""
        if value is None:
            return 0
        if brk is not None and any(c.brk == brk and c.grad.origin == origin for c in value.cut):
            return 2
        if any(g.origin == origin for g in value.live):
            return 1
        return 1 if any(c.grad.origin == origin for c in value.cut) else 0

    def _next(self, node: ast.AST, origin: Origin, brk: Break | None) -> ast.AST | None:
        key = name_key(node) if isinstance(getattr(node, "ctx", None), ast.Load) else None
        if key is not None:
            bound = self._binding(key, node)
            if bound is None:  # a list filled by `losses.append(...)`: what was appended
                bound = self._appended(key, node, origin, brk)
            if bound is not None:
                return bound
        best, score = None, 0
        for child in ast.iter_child_nodes(node):
            relevance = self._relevant(self.values.get(child), origin, brk)
            if relevance > score:
                best, score = child, relevance
        if best is None:  # a call whose callee the engine evaluated in its own way: find the start inside
            return next((n for n in ast.walk(node) if n is not node and getattr(n, "lineno", None)
                         and self.values.get(n) is not None and self._relevant(self.values[n], origin, brk)), None)
        return best

    def _appended(self, key: str, use: ast.AST, origin: Origin, brk: Break | None) -> ast.AST | None:
        """The last argument of `key.append(x)` / `.extend` / `.insert` in `use`'s scope that leads to `origin`."""
        scope = self._scope(use)
        found = None
        for call in self.doc.nodes_of(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in ("append", "extend", "insert") and call.args \
                    and name_key(func.value) == key and self._scope(call) is scope \
                    and self._relevant(self.values.get(call.args[-1]), origin, brk):
                if found is None or (call.lineno, call.col_offset) > (found.lineno, found.col_offset):
                    found = call
        return found.args[-1] if found is not None else None

    def _binding(self, key: str, use: ast.AST) -> ast.AST | None:
        """The expression last bound to `key` before `use` (in its scope first), or None."""
        if self._bindings is None:
            self._bindings = {}
            for node in self.values:
                if isinstance(getattr(node, "ctx", None), ast.Store) and (k := name_key(node)):
                    self._bindings.setdefault(k, []).append(node)
            for targets in self._bindings.values():
                targets.sort(key=lambda n: (n.lineno, n.col_offset))
        targets = self._bindings.get(key, [])
        scope = self._scope(use)
        mine = [t for t in targets if self._scope(t) is scope] or targets
        before = [t for t in mine if (t.lineno, t.col_offset) < (use.lineno, use.col_offset)]
        chosen = (before or mine)[-1] if (before or mine) else None
        return self._bound_value(chosen) if chosen is not None else None

    def _bound_value(self, target: ast.AST) -> ast.AST | None:
        parents = self.doc.parents
        child, parent = target, parents.get(target)
        path = []
        while isinstance(parent, (ast.Tuple, ast.List, ast.Starred)):
            path.append(parent.elts.index(child) if not isinstance(parent, ast.Starred) else None)
            child, parent = parent, parents.get(parent)
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            value = parent.value
            for index in reversed(path):  # `a, b = x, y`: the element bound to the name
                if index is None or not isinstance(value, (ast.Tuple, ast.List)) or index >= len(value.elts):
                    break
                value = value.elts[index]
            return value
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
            return parent.iter
        if isinstance(parent, ast.withitem):
            return parent.context_expr
        return None

    def _statement(self, node: ast.AST) -> ast.AST | None:
        """The simple statement holding `node`, or the expression itself in a compound statement's header."""
        parents = self.doc.parents
        current, below = node, node
        while current is not None and not isinstance(current, ast.stmt):
            below, current = current, parents.get(current)
        if current is None:
            return None
        return below if isinstance(current, _COMPOUND) and below is not current else current

    def _scope(self, node: ast.AST) -> ast.AST | None:
        known = self._scopes.get(id(node), False)
        if known is not False:
            return known
        parents = self.doc.parents
        current = parents.get(node)
        while current is not None and not isinstance(current, _SCOPES):
            current = parents.get(current)
        self._scopes[id(node)] = current
        return current

    def _lens(self) -> dict[int, list[TapeInfo]]:
        """The scopes the lens speaks in (a sink or a tape in them, a loss function, a `train_step`),
        each with its tapes in order."""
        if self._lens_scopes is None:
            scopes: dict[int, list[TapeInfo]] = {}
            for sink in self.analysis.sinks:
                scopes.setdefault(id(self._scope(sink.node)), [])
                if sink.kind is SinkKind.LOSS_FUNCTION:
                    scopes.setdefault(id(sink.node), [])
                root = self._loss_root(sink) if sink.kind is SinkKind.MINIMIZE else None
                if root is not None:  # the loss function given to `minimize`
                    scopes.setdefault(id(self._scope(root)), [])
            for tape in sorted(self.analysis.tapes, key=lambda t: (t.with_node.lineno, t.with_node.col_offset)):
                scopes.setdefault(id(self._scope(tape.with_node)), []).append(tape)
            for function in self.doc.nodes_of(ast.FunctionDef):
                if function.name == "train_step":
                    scopes.setdefault(id(function), [])
            self._lens_scopes = scopes
        return self._lens_scopes

    # -- values -----------------------------------------------------------------------------------

    def tape_for(self, node: ast.AST) -> tuple[TapeInfo | None, str]:
        """The tape a value matters to, and where the value is: "inside" its `with` block,
        "before" or "after" it (the tapes of the same function), or (None, "") with no tape."""
        parents = self.doc.parents
        current = parents.get(node)
        while current is not None and not isinstance(current, _SCOPES):
            tape = self._tapes.get(id(current))
            if tape is not None and tape.with_node is current:
                return tape, "inside"
            current = parents.get(current)
        here = (node.lineno, node.col_offset)
        mine = self._lens().get(id(current), [])
        after = [t for t in mine if (t.with_node.lineno, t.with_node.col_offset) > here]
        if after:
            return min(after, key=lambda t: t.with_node.lineno), "before"
        if mine:
            return max(mine, key=lambda t: t.with_node.lineno), "after"
        return None, ""

    def interesting(self, node: ast.AST) -> bool:
        """In a function (or the module) with a sink or a tape, a loss function, or a `train_step`."""
        return id(self._scope(node)) in self._lens()

    def explain_value(self, node: ast.AST, at: At = plain_at) -> list[tuple[bool, str, Cut | Grad]]:
        """(carries a gradient the tape records, the words, the path) for each origin of the value."""
        value = self.values.get(node)
        if value is None:
            return []
        tape, where = self.tape_for(node)
        out = []
        by_origin: dict[Origin, Grad] = {}
        # (the same origin and site may come with several histories: the earliest drop is told,
        # whatever order the set gives them in)
        for grad in sorted(value.live, key=lambda g: (g.site, g.origin.key, g.dropped_at is not None,
                                                       g.dropped_at or g.site, g.bootstrap, g.weights)):
            by_origin.setdefault(grad.origin, grad)
        named = {o for o in by_origin if o.kind is not OriginKind.NEW}
        if named:  # a model's inner layers, made inline (`Dense(16)` in a `Sequential`): the model says it
            by_origin = {o: g for o, g in by_origin.items() if o in named}
        for origin, grad in by_origin.items():
            recorded = tape is None or grad.opaque or (grad.tapes is None and where == "inside") or (
                grad.tapes is not None and tape.id in grad.tapes)
            if recorded:
                out.append((True, words.carries(grad, at), grad))
            else:
                out.append((False, words.not_recorded(tape, where, grad, at), grad))
        cuts: dict[tuple, Cut] = {}
        for cut in sorted(value.cut, key=lambda c: (c.brk.span, c.grad.origin.key, c.grad.site)):
            cuts.setdefault((cut.brk.span, cut.brk.via, cut.grad.origin), cut)
        named |= {c.grad.origin for c in cuts.values() if c.grad.origin.kind is not OriginKind.NEW}
        for cut in cuts.values():
            if named and cut.grad.origin not in named:
                continue
            out.append((False, words.constant(cut.brk, cut.grad.origin, tape, at), cut))
        return out

    def rule_url(self, code: str) -> str | None:
        rule = registry.rule_by_code(code)
        return rule.doc_url() if rule else None

    def hover_lines(self, line: int, col: int, at: At = plain_at) -> tuple[str, list[str]] | None:
        """(the expression, one Markdown line per origin) for a hover at a position; None where the
        lens has nothing to say."""
        node = self.value_at(line, col)
        sink = next((s for s in self.analysis.sinks if node is not None and s.kind is not SinkKind.LOSS_FUNCTION
                     and (node is s.node or node is getattr(s.node, "func", None))), None)
        if sink is None and node is None:
            sink = self.sink_at(line, col)
            if sink is not None and sink.kind is not SinkKind.LOSS_FUNCTION and not _within(
                    self.doc.span(getattr(sink.node, "func", sink.node)), line, col):
                sink = None
        if sink is not None:
            explanation = self.explain_sink(sink, at, steps=False)
            if not explanation.sources:
                return None
            lines = [self._with_rule(s.summary, s.brk) for s in explanation.sources]
            return explanation.title, lines
        if node is None or not self.interesting(node):
            return self._break_hover(line, col, at)
        value = self.values[node]
        if value.kind is Kind.GRADS and self.tape_for(node)[1] != "inside":
            return None  # gradients computed after the tape: nothing to say about their own gradient
        explained = self.explain_value(node, at)
        if not explained:
            return None
        lines = [self._with_rule(text, path.brk if isinstance(path, Cut) else None) for _, text, path in explained]
        here = self._break_hover(line, col, at, self.doc.span(node))  # a break at this very expression
        return f"`{self.doc.short(node, 60)}`", lines + [extra for extra in (here[1] if here else []) if extra not in lines]

    def _break_hover(self, line: int, col: int, at: At, exactly: Span | None = None) -> tuple[str, list[str]] | None:
        """At a break the engine met outside the code it records (a layer's `Lambda(tf.round)`, a
        helper), or `exactly` at a span: which sink's sources it cuts."""
        if self._break_index is None:
            self._break_index = [(s.brk.via or s.brk.span, sink, s.origin, s.brk) for sink in self.analysis.sinks
                                 for s in self.explain_sink(sink, steps=False).sources if s.brk is not None]
        found = [(span, sink, origin, brk) for span, sink, origin, brk in self._break_index
                 if _within(span, line, col) and exactly in (None, span)]
        if not found:
            return None
        lines = [self._with_rule(f"cuts the gradient of `{origin.name}` for {sink.label}: {words.cut_by(brk, at)}", brk)
                 for _, sink, origin, brk in found]
        return f"`{self.doc.short_span(found[0][0], 60)}`", list(dict.fromkeys(lines))

    def _with_rule(self, text: str, brk: Break | None) -> str:
        url = self.rule_url(brk.code) if brk is not None else None
        return f"{text} ([{brk.code}]({url}))" if url else text

    # -- inlay hints ----------------------------------------------------------------------------

    def hints(self, at: At = plain_at) -> list[tuple[int, int, str, str]]:
        """(line, column, label, tooltip) after each sink: which requested sources get a gradient."""
        return sorted({hint[:4] for hint in self.sink_hints(at)})

    def sink_hints(self, at: At = plain_at) -> list[tuple[int, int, str, str, Sink]]:
        """The hints with the sink each one is about (the code lens's command explains it)."""
        out = []
        for sink in self.analysis.sinks:
            explanation = self.explain_sink(sink, at, steps=False)
            if not explanation.sources:
                continue
            sources = explanation.sources
            if len(sources) <= 2:
                label = ", ".join(s.summary if not s.ok else f"✓ {words.origin_label(s.origin)}" for s in sources)
            else:
                distinct = explanation.per_source
                good = sum(s.ok is True for s in distinct)
                bad = sum(s.ok is False for s in distinct)
                label = f"{words.mark(False if bad else True if good == len(distinct) else None)} {good} of {len(distinct)} sources"
            tooltip = "\n".join(s.summary for s in sources)
            out.extend((line, col, label, tooltip, sink) for line, col in self._hint_places(sink))
        return out

    def _hint_places(self, sink: Sink) -> list[tuple[int, int]]:
        """After the call; for a loss function after the `compile` calls that name it, else at the
        end of its `def` line."""
        if sink.kind is SinkKind.LOSS_FUNCTION:
            compiles = [c for c in self._loss_uses().get(id(sink), []) if c.func.attr == "compile"]
            if compiles:
                return [(self.doc.span(c).end_line, self.doc.span(c).end_col) for c in compiles]
            line = sink.node.lineno
            body = getattr(sink.node, "body", None)
            if isinstance(body, list) and body:
                line = max(line, body[0].lineno - 1)
            return [(line, len(self.doc.lines[line - 1].rstrip("\r\n")))]
        span = self.doc.span(sink.node)
        return [(span.end_line, span.end_col)]


def _within(span: Span, line: int, col: int | None) -> bool:
    if col is None:
        return span.line <= line <= span.end_line
    return (span.line, span.col) <= (line, col) < (span.end_line, span.end_col)  # a character of the span


def _size(span: Span) -> tuple[int, int]:
    return (span.end_line - span.line, (span.end_col - span.col) if span.line == span.end_line else span.end_col)
