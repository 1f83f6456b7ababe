"""Small INVALID and VALID programs for every rule, in the manner of Fixit's rule tests.

One module per rule family (gg1.py for GG1xx, ...), each with a list `SNIPPETS` of `Invalid`
and `Valid` programs of 5 to 15 lines, picked to exercise a rule's message and span beyond its
documented `bad` and `good` examples. An `Invalid` snippet is one that its rule reports today;
a `Valid` one has no finding at all. tests/test_rule_snippets.py checks that and pins every
snippet's full findings as a snapshot (tests/__snapshots__/test_rule_snippets.ambr).

They are checked statically only: unlike the rule examples and tests/programs, TensorFlow does
not run them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Snippet:
    code: str      # the rule it is for: "GG101"
    name: str      # short, unique for its rule: "variable_numpy"
    source: str
    valid: bool

    @property
    def id(self) -> str:
        return f"{self.code}-{'valid' if self.valid else 'invalid'}-{self.name}"


def Invalid(code: str, name: str, source: str) -> Snippet:  # noqa: N802 - reads like Fixit's
    """A program on which rule `code` reports."""
    return Snippet(code, name, source, valid=False)


def Valid(code: str, name: str, source: str) -> Snippet:  # noqa: N802
    """A program close to rule `code`'s pattern on which gradguard reports nothing."""
    return Snippet(code, name, source, valid=True)


def all_snippets() -> list[Snippet]:
    from . import gg1, gg2, gg3, gg4

    return [snippet for family in (gg1, gg2, gg3, gg4) for snippet in family.SNIPPETS]
