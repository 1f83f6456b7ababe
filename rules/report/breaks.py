"""The shared break report: findings for every `BreakRule` the interpreter met on a dead path.

A break is reported when, at a sink, some differentiated origin has no live path left and at
least one of its paths was cut by that break: `error` when no differentiated origin keeps a
gradient (TensorFlow raises or returns all None), `warning` when others still do.
"""
from __future__ import annotations

import ast

from ..catalogue.phrases import guess_notes, side_path_consequence, sink_phrase
from ..catalogue.rule import BreakRule
from ..diagnostics import Diagnostic, Related, Severity, Span, display_path
from ..model.facts import Analysis, SinkKind, name_key
from ..model.status import Verdict, dead_severity, sink_status
from ..model.values import Cut, Grad, Origin, OriginKind


def break_diagnostics(analysis: Analysis, rules: dict[str, BreakRule]) -> list[Diagnostic]:
    """The findings of the origins whose verdict the break rules own (`BreakRule.owns`)."""
    out: list[Diagnostic] = []
    doc = analysis.doc
    for sink in analysis.sinks:
        status = sink_status(analysis, sink)
        severity = dead_severity(status)
        dead = [o for o, s in status.items() if s.verdict is Verdict.CUT]
        target_only = [o for o, s in status.items() if s.verdict is Verdict.TARGET_ONLY]
        # An op with no gradient registered at all makes the whole gradient call raise, even
        # when other paths keep every variable alive.
        # (Unless the program catches it: a demonstration of the error.)
        caught = _catches_lookup_error(sink.node, doc)
        raising = [o for o, s in status.items() if o not in dead and o not in target_only
                   and any(c.brk.raises for c in s.cuts)] if not caught else []
        # A whole added term cut while the rest of the loss trains the same variables: a warning.
        term_breaks = _dead_terms(analysis, sink)
        # (A term cut before the tape counts too: `- 0.01 * np.mean(snapshot["log_std"])` is a
        # constant however it was made, and the term's origin is trained by the others.)
        dead_terms = [o for o, s in status.items() if s.verdict is Verdict.LIVE and o not in raising
                      and any(c.brk.span in term_breaks for c in s.cuts + s.untaped_cuts)]
        for origin in dead + target_only + raising + dead_terms:
            partial = severity == Severity.WARNING or origin not in dead
            cuts = status[origin].cuts if origin not in raising else [c for c in status[origin].cuts if c.brk.raises]
            cuts = [c for c in cuts if not (caught and c.brk.raises)]
            if origin in dead_terms:
                cuts = [c for c in status[origin].cuts + status[origin].untaped_cuts if c.brk.span in term_breaks]
            for cut in reported_breaks(cuts, rules):
                rule = rules[cut.brk.code]
                brk = cut.brk
                before_tape = origin in dead_terms and cut not in status[origin].cuts
                where = _helper_place(brk, doc) if brk.via else ""
                raises = brk.raises and sink.kind is not SinkKind.LOSS_FUNCTION
                if raises:
                    consequence = (f"{sink.label} raises LookupError: TensorFlow has no gradient registered "
                                   f"for it, so no path through it to `{origin.variables_text()}` can be differentiated")
                elif origin in dead_terms:
                    consequence = (f"this term adds nothing to the gradient of the loss given to {sink.label}; the "
                                   f"other terms still train `{origin.variables_text()}`, so training silently "
                                   f"ignores it")
                    if before_tape:  # removing the break would not help: the tape never saw the forward pass
                        consequence += (" (the value was computed before the tape: compute the term from the "
                                        "forward pass inside it)")
                elif origin in dead:
                    consequence = sink_phrase(sink, [origin], partial)
                else:
                    consequence = side_path_consequence(status[origin].live, origin)
                message = f"`{brk.value_text}` ({_what(origin, cut.grad)}) {rule.verb} {brk.label}{where}; {consequence}"
                related = [Related(cut.grad.site, f"`{origin.name}` starts the gradient here")]
                if brk.via:
                    related.append(Related(brk.span, f"{brk.name} cuts the gradient here", brk.path))
                related.append(Related(doc.span(sink.node), f"the loss reaches {sink.named} here"))
                td_targets = [g.site for g in status[origin].live if g.bootstrap] if origin in target_only else []
                related.extend(guess_notes(doc, origins=[origin], sink=sink, td_targets=td_targets))
                fixes = tuple(rule.fixes(brk, doc)) if _fixable_here(brk) and not before_tape else ()
                level = Severity.ERROR if raises else Severity.WARNING if partial else severity
                out.append(Diagnostic(brk.code, level, message, brk.via or brk.span, tuple(related), fixes))
    return out


def _dead_terms(analysis: Analysis, sink) -> set[Span]:
    """The breaks of the dead terms summed into the name this sink differentiates (`loss`)."""
    key = name_key(sink.target_node) if isinstance(sink.target_node, (ast.Name, ast.Attribute)) else None
    return analysis.dead_terms.get(key, set()) if key is not None else set()


def _catches_lookup_error(node: ast.AST, doc) -> bool:
    """`try: tape.gradient(...) except LookupError:`: the program expects the error (a demonstration)."""
    for child, parent in doc.ancestors(node):
        if isinstance(parent, ast.Try) and any(child is stmt for stmt in parent.body):
            for handler in parent.handlers:
                names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                if any(n is None or doc.text(n) in ("LookupError", "Exception", "BaseException") for n in names):
                    return True
    return False


def _helper_place(brk, doc) -> str:
    where = brk.inside or "a helper"
    if brk.path is None:
        return f", inside {where} (line {brk.span.line})"
    return f", inside {where} ({display_path(brk.path, doc.path)}, line {brk.span.line})"


def _fixable_here(brk) -> bool:
    """A break in the line reported is fixed there; one in a layer's `call` of this file is fixed
    in the `call` (the straight-through estimator keeps the forward value for every caller). A
    break in a helper keeps its meaning for the helper's other callers, so it is left to the user."""
    if brk.inside is not None and not isinstance(brk.node, ast.Call):
        return False  # `Lambda(tf.round)`: the function is named, not called, there
    if brk.via is None:
        return True
    return brk.inside is not None and brk.path is None


def reported_breaks(cuts: list[Cut], rules: dict[str, BreakRule]) -> list[Cut]:
    """The breaks to report for one dead origin. A deliberate cut (`tf.stop_gradient`) is named
    only when nothing else cut the origin: beside another break, some path went past it, so the
    other break is the one to fix (and unwrapping a straight-through estimator would undo a fix)."""
    breaks = _distinct_breaks(cuts)
    accidental = [cut for cut in breaks if not rules[cut.brk.code].absorbs_cuts]
    return accidental or breaks


def _distinct_breaks(cuts: list[Cut]) -> list[Cut]:
    seen: dict[tuple[Span, Span | None], Cut] = {}
    certain = [cut for cut in cuts if not cut.grad.opaque]  # a maybe-dependency proves no break
    # (The earliest site among the paths one break cuts: the cuts come from sets, and the origin
    # reached twice, `critic(x)` and `critic(y)`, named the site by set order, run to run.)
    for cut in sorted(certain, key=lambda c: (c.brk.span, c.brk.code, c.grad.site)):
        seen.setdefault((cut.brk.span, cut.brk.via), cut)
    return list(seen.values())


def _what(origin: Origin, grad: Grad) -> str:
    """What the broken value is to the origin: a model's variable read directly (`critic.w`,
    `layer.kernel`) is not its output."""
    if grad.weights and origin.kind is OriginKind.MODEL and origin.part is None:
        return f"a variable of `{origin.name}`"
    return origin.describe()
