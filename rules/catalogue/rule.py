"""What every rule declares: its code, documentation and runnable examples.

A rule is one module `rules/ggNNN_<name>.py` defining one subclass of `BreakRule` (a
non-differentiable step the data-flow engine recognises on the way to a loss) or `CheckRule`
(a check over the finished analysis: tapes, sinks, variables). The examples are complete
programs; tests run them with TensorFlow and the docs in docs/rules/ are rendered from them.
"""
from __future__ import annotations

from ..diagnostics import Severity
from ..model.status import Verdict

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:
    from typing import ClassVar


class Rule:
    code: ClassVar[str]            # "GG101"
    name: ClassVar[str]            # "numpy-method-on-tensor"
    summary: ClassVar[str]         # one line, shown in `gradguard rule --all`
    what: ClassVar[str]            # what it detects (Markdown)
    why: ClassVar[str]             # why TensorFlow loses the gradient (Markdown)
    error: ClassVar[str]           # what the user sees at run time
    bad: ClassVar[str]             # runnable program that triggers the rule
    good: ClassVar[str]            # runnable program that does not
    fix_safety: ClassVar[str]      # prose: which fixes exist and why they are (un)safe
    severity: ClassVar[Severity] = Severity.ERROR  # default when every path is cut
    # What TensorFlow does with `bad`: "none" (None gradients / "No gradients provided"),
    # "raises <ExceptionName>", or "ok" for silent bugs whose effect is shown instead.
    bad_outcome: ClassVar[str] = "none"
    # What TensorFlow does with `bad` after gradguard's preferred fix: "ok", or "differs" (the
    # gradients change, for silent bugs), or "nofix" when the rule offers no automatic fix.
    fixed_outcome: ClassVar[str] = "ok"
    # The verdicts (model/status.py) of a sink's origin this rule reports: where two rules see the
    # same lost gradient, `status.verdict` decides once which one it is, and only that rule speaks.
    owns: ClassVar[tuple[Verdict, ...]] = ()

    @classmethod
    def doc_url(cls) -> str:
        return f"https://github.com/gradguard/gradguard/blob/main/docs/rules/{cls.code}.md"


class BreakRule(Rule):
    """A step the engine recognises while evaluating a call or comparison.

    `match` returns a label for the break (e.g. "`.numpy()`") or None. The engine only asks when
    a gradient-carrying value goes in, and reports only when the result reaches a sink with every
    path from some differentiated variable cut.
    """

    owns = (Verdict.CUT, Verdict.TARGET_ONLY)  # reported together, by the break report
    verb: ClassVar[str] = "leaves TensorFlow through"
    # `v.assign(x)` changes `v` itself: later reads of `v` carry the cut too.
    mutates_receiver: ClassVar[bool] = False
    # `tf.stop_gradient` cuts its whole argument on purpose: a cut inside it (`tf.floor` in a
    # straight-through estimator) is moot, so it becomes this step's own cut instead of a finding.
    absorbs_cuts: ClassVar[bool] = False

    def match(self, site) -> str | None:
        raise NotImplementedError

    def value_node(self, site):
        """The expression named in the message as the value that loses its gradient (None: default)."""
        return None

    def raises(self, site) -> bool:
        """TensorFlow has no gradient registered for this step at all: `tape.gradient` raises
        `LookupError` when any path it differentiates goes through it, whatever other paths exist."""
        return False

    def cut_inputs(self, site) -> list:
        """The values whose gradient the step cuts; the rest pass through untouched."""
        return site.inputs()

    def fixes(self, brk, doc) -> list:
        return []


class CheckRule(Rule):
    """A check over a finished analysis (tapes, sinks, variables, classes)."""

    def check(self, analysis) -> list:
        raise NotImplementedError
