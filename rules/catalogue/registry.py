"""Finds the rules: every module `catalogue/ggN/gg*.py` defines exactly one Rule subclass."""
from __future__ import annotations

import functools
import importlib
import os

from .rule import BreakRule, Rule

FAMILIES = ("gg1", "gg2", "gg3", "gg4")  # value leaves TF, stop_gradient, tape misuse, ops without gradient


@functools.cache
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule, sorted by code."""
    found: list[type[Rule]] = []
    for family in FAMILIES:
        package = importlib.import_module(f"{__package__}.{family}")
        # The family's modules, listed from its folder (pkgutil's import machinery is not needed for that).
        names = sorted(name[:-3] for folder in package.__path__ for name in os.listdir(folder)
                       if name.startswith("gg") and name.endswith(".py"))
        for name in names:
            found.append(_the_rule_of(importlib.import_module(f"{package.__name__}.{name}")))
    return tuple(sorted(found, key=lambda r: r.code))


def _the_rule_of(module) -> type[Rule]:
    rules = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
        and getattr(obj, "code", None)
    ]
    if len(rules) != 1:
        raise RuntimeError(f"{module.__name__} must define exactly one rule, found {len(rules)}")
    return rules[0]


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in all_rules():
        if rule.code == code.upper():
            return rule
    return None


@functools.cache
def break_rules() -> tuple[BreakRule, ...]:
    """One instance of every break rule: what the interpreter consults at each call."""
    return tuple(rule() for rule in all_rules() if issubclass(rule, BreakRule))
