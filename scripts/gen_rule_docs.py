#!/usr/bin/env python
"""Write docs/rules/<CODE>.md for every rule and the index docs/rules/README.md.

    python scripts/gen_rule_docs.py            # (re)write the docs
    python scripts/gen_rule_docs.py --check    # exit 1 when any file is stale (for CI and tests)
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from gradguard.rules.catalogue import registry
from gradguard.rules.catalogue.docs import render_index, render_rule_doc

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "rules"
_RULE_PAGE = re.compile(r"^[A-Z]+[0-9]+\.md$")


def expected_files() -> dict[str, str]:
    rules = registry.all_rules()
    files = {f"{rule.code}.md": render_rule_doc(rule) for rule in rules}
    files["README.md"] = render_index(rules)
    return files


def stale_files(out: Path, expected: dict[str, str]) -> list[str]:
    """Files that differ from what would be generated, plus pages of rules that no longer exist."""
    stale = [name for name, text in expected.items() if _read(out / name) != text]
    if out.is_dir():
        stale += sorted(p.name for p in out.iterdir() if _RULE_PAGE.match(p.name) and p.name not in expected)
    return stale


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def write(out: Path, expected: dict[str, str]) -> list[str]:
    changed = stale_files(out, expected)
    out.mkdir(parents=True, exist_ok=True)
    for name in changed:
        if name in expected:
            (out / name).write_text(expected[name], encoding="utf-8", newline="\n")
        else:
            (out / name).unlink()
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files; exit 1 if any")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: docs/rules)")
    args = parser.parse_args(argv)
    expected = expected_files()
    if args.check:
        stale = stale_files(args.out, expected)
        for name in stale:
            print(f"stale: {args.out / name}", file=sys.stderr)
        if stale:
            print("run `python scripts/gen_rule_docs.py` to regenerate the rule docs", file=sys.stderr)
        return 1 if stale else 0
    for name in write(args.out, expected):
        print(f"{'wrote' if name in expected else 'removed'} {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
