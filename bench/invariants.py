"""The invariants at scale, without TensorFlow (tests/invariants/; docs/invariants.md).

    .venv/bin/python bench/invariants.py                                  # every variant of the named corpora
    .venv/bin/python bench/invariants.py --corpus programs --per-program 40 --seed 7
    .venv/bin/python bench/invariants.py --corpus oracle:20261202:2000 --per-program 30
    .venv/bin/python bench/invariants.py --corpus ../.mirror/some-repo-export --out /tmp/violations.jsonl

Opacity: for each program P and each variant P' hiding one part of it (tests/invariants/opacity.py),
`Findings(P') ⊆ Findings(P)`. Prints each violation as it is found, then a table by corpus and
variant kind; `--out` writes the violations as JSON lines (program, variant, added findings).
Exit status 1 when there is a violation.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from invariants import inputs  # noqa: E402
from invariants.opacity import Variant, added_findings, gradguard_findings, sample, variants  # noqa: E402


def check_program(job: tuple[str, str, int, int]) -> tuple[str, Counter, list[dict], str | None]:
    """One program's variants: (name, variants by kind, violations, error)."""
    name, source, per_program, seed = job
    counts: Counter = Counter()
    found: list[dict] = []
    try:
        base = frozenset(gradguard_findings(source))
        chosen = list(variants(source)) if per_program <= 0 else sample(source, per_program, random.Random(f"{seed}:{name}"))
    except Exception as error:  # noqa: BLE001 (a program the analyzer cannot take is reported, not fatal)
        return name, counts, found, f"{type(error).__name__}: {error}"
    for variant in chosen:
        counts[variant.kind] += 1
        try:
            added = added_findings(base, variant, gradguard_findings)
        except Exception as error:  # noqa: BLE001
            found.append(_record(name, variant, [], f"{type(error).__name__}: {error}"))
            continue
        if added:
            found.append(_record(name, variant, sorted(added), None))
    return name, counts, found, None


def _record(name: str, variant: Variant, added, error: str | None) -> dict:
    return {"program": name, "kind": variant.kind, "line": variant.line, "hidden": variant.hidden,
            "added": [f"{code}@{line}" for code, line in added], "error": error}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", default=[],
                        help="programs, examples, reports, oracle:SEED:COUNT, or a folder (repeatable; "
                             "default: the first three)")
    parser.add_argument("--per-program", type=int, default=0, help="variants drawn per program (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the violations here, one JSON object a line")
    args = parser.parse_args(argv)
    corpora = args.corpus or list(inputs.NAMED)
    started = time.perf_counter()
    table: dict[str, Counter] = {}
    violated: dict[str, Counter] = {}
    records: list[dict] = []
    errors = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for corpus in corpora:
            jobs = [(name, text, args.per_program, args.seed) for name, text in inputs.corpus(corpus)]
            table[corpus], violated[corpus] = Counter(), Counter()
            for name, counts, found, error in pool.imap_unordered(check_program, jobs, chunksize=4):
                table[corpus].update(counts)
                if error:
                    errors += 1
                    print(f"  {name}: not analysed ({error})", file=sys.stderr)
                for record in found:
                    violated[corpus][record["kind"]] += 1
                    records.append(record)
                    what = record["error"] or " ".join(record["added"])
                    print(f"  {record['program']}: {record['kind']}@{record['line']} `{record['hidden']}` adds {what}",
                          flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    kinds = sorted({kind for counts in table.values() for kind in counts})
    print(f"\nopacity, seed {args.seed}, {'every variant' if args.per_program <= 0 else f'{args.per_program} per program'}"
          f" ({time.perf_counter() - started:.0f} s)\n")
    print("| corpus | " + " | ".join(kinds) + " | all |")
    print("| --- |" + " ---: |" * (len(kinds) + 1))
    for corpus in corpora:
        cells = [f"{violated[corpus][k]} / {table[corpus][k]}" for k in kinds]
        total = f"{sum(violated[corpus].values())} / {sum(table[corpus].values())}"
        print(f"| {corpus} | " + " | ".join(cells) + f" | {total} |")
    print("\n(violations / variants: a variant that adds a finding is a claim without proof)")
    if errors:
        print(f"{errors} programs not analysed", file=sys.stderr)
    return 1 if records else 0


if __name__ == "__main__":
    sys.exit(main())
