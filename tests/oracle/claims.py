"""What gradguard's findings claim about a program, in terms TensorFlow can check.

* A *gradient claim* (every rule that reports a missing gradient: the GG1 cuts, GG201, the GG3
  tape rules but GG309, the GG4 ops): running the program, some gradient the sink asks for is
  None, or the program raises because of it (`No gradients provided`, a non-persistent tape asked
  twice, an op with no gradient registered). GG302 and GG306 say more: the gradient of the
  *source they point at* is None, so when the span lies on one source group of the generated
  program, that group's gradients must not all be present.
* A *guard claim* (GG309): the guarded value is a list (so `if grads:` is true even when every
  gradient is None). TensorFlow's answer is what `tape.gradient` returned: a list, or one tensor.
* A *regularization claim* (GG311): the gradients the program asks for leave out the penalties
  its layers declare. TensorFlow's answer: the same program run with every penalty doubled asks
  for the same gradients (runner.py, `_regularization_fact`).
* A break reported with a side path ("only a weight penalty still carries a gradient"): every
  gradient is present, the prediction's path is cut; counted apart (`other`), like GG202.
* GG202 claims that a target *is* trained (gradients present, algorithm wrong): not a None claim,
  and the generator writes no TD targets, so it is counted apart (`other`).
"""
from __future__ import annotations

from dataclasses import dataclass

GUARD_CODES = frozenset({"GG309"})
# Rules that claim the loss leaves the layers' regularization out (every gradient is present).
REGULARIZATION_CODES = frozenset({"GG311"})
# Rules that name the source they claim about (its span is that source in the gradient call).
GROUP_CODES = frozenset({"GG302", "GG306"})
OTHER_CODES = frozenset({"GG202", "GG900"})
# A break whose model still gets a gradient from a side path ("only a weight penalty still carries
# a gradient for `model.trainable_variables`": the loss adds `model.losses`): the claim is that
# the prediction's path is cut, with every gradient present. No None to check: counted apart.
SIDE_PATH = "still carries a gradient for"


@dataclass(frozen=True)
class Claim:
    code: str
    line: int
    message: str
    kind: str            # "gradient", "guard", "regularization" or "other"
    group: int | None    # GG302: the source group it names, when its span lies on one

    def describe(self) -> str:
        return f"{self.code}@{self.line}: {self.message[:140]}"


def claims_of(diagnostics, group_spans) -> list[Claim]:
    out = []
    for d in diagnostics:
        if d.code.startswith("E"):
            continue
        kind = ("guard" if d.code in GUARD_CODES else "regularization" if d.code in REGULARIZATION_CODES
                else "other" if d.code in OTHER_CODES or SIDE_PATH in d.message else "gradient")
        group = None
        if d.code in GROUP_CODES:
            group = _group_at(d.span, group_spans)
        out.append(Claim(d.code, d.span.line, d.message, kind, group))
    return out


def _group_at(span, group_spans) -> int | None:
    for index, (line, col, end_col) in enumerate(group_spans):
        if span.line == line and col <= span.col < end_col:
            return index
    return None
