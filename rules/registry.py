"""Finds the rules: every module `rules/gg*.py` defines exactly one Rule subclass."""
from __future__ import annotations

import functools
import importlib
import pkgutil

from . import __path__ as _package_path
from .rule import Rule


@functools.cache
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule, sorted by code."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(_package_path):
        if not info.name.startswith("gg"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        rules = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == module.__name__
            and getattr(obj, "code", None)
        ]
        if len(rules) != 1:
            raise RuntimeError(f"{module.__name__} must define exactly one rule, found {len(rules)}")
        found.append(rules[0])
    return tuple(sorted(found, key=lambda r: r.code))


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in all_rules():
        if rule.code == code.upper():
            return rule
    return None
