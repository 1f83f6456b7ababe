"""The invariants at scale, without TensorFlow (tests/invariants/; docs/invariants.md).

    .venv/bin/python bench/invariants.py                                  # every variant of the named corpora
    .venv/bin/python bench/invariants.py --corpus programs --per-program 40 --seed 7
    .venv/bin/python bench/invariants.py --corpus oracle:20261202:2000 --per-program 30
    .venv/bin/python bench/invariants.py --corpus ../.mirror/some-repo-export --out /tmp/violations.jsonl
    .venv/bin/python bench/invariants.py --invariant rewrites --per-program 40   # refactoring invariance

Opacity: for each program P and each variant P' hiding one part of it (tests/invariants/opacity.py),
`Findings(P') ⊆ Findings(P)`. Rewrites: for each rewrite P' that keeps what P does
(tests/invariants/rewrites.py, one step or two chained), `Findings(P') == Findings(P)`: a finding
added is a claim without proof (a violation), one lost a defect the rewrite hid (counted, per
family, against the findings of the programs rewritten). Prints each violation as it is found,
then a table by corpus and kind; `--out` writes them as JSON lines (program, variant, added and
lost findings). Exit status 1 when a finding is added.
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
from invariants.opacity import added_findings, gradguard_findings, sample, variants  # noqa: E402
from invariants.rewrites import changed_findings, rewrites  # noqa: E402


def check_program(job: tuple[str, str, str, int, int]) -> tuple[str, Counter, Counter, list[dict], str | None]:
    """One program's variants: (name, variants by kind, findings put at risk by kind, records, error)."""
    invariant, name, source, per_program, seed = job
    counts: Counter = Counter()
    at_risk: Counter = Counter()
    found: list[dict] = []
    rng = random.Random(f"{seed}:{name}")
    try:
        base = frozenset(gradguard_findings(source))
        if invariant == "opacity":
            chosen = list(variants(source)) if per_program <= 0 else sample(source, per_program, rng)
        else:
            chosen = [*rewrites(source), *rewrites(source, random.Random(f"{seed}:{name}:chain"), chained=True)]
            chosen = chosen if per_program <= 0 or len(chosen) <= per_program else rng.sample(chosen, per_program)
    except Exception as error:  # noqa: BLE001 (a program the analyzer cannot take is reported, not fatal)
        return name, counts, at_risk, found, f"{type(error).__name__}: {error}"
    for variant in chosen:
        kind = getattr(variant, "kind", None) or variant.family.split(":")[0]  # (chains counted as one family)
        counts[kind] += 1
        at_risk[kind] += len(base)
        try:
            if invariant == "opacity":
                added, lost = added_findings(base, variant, gradguard_findings), frozenset()
            else:
                added, lost = changed_findings(base, variant, gradguard_findings)
        except Exception as error:  # noqa: BLE001
            found.append(_record(name, kind, variant, [], [], f"{type(error).__name__}: {error}"))
            continue
        if added or lost:
            found.append(_record(name, kind, variant, sorted(added), sorted(lost), None))
    return name, counts, at_risk, found, None


def _record(name: str, kind: str, variant, added, lost, error: str | None) -> dict:
    hidden = getattr(variant, "hidden", None) or getattr(variant, "before", "")
    return {"program": name, "kind": kind, "line": variant.line, "hidden": hidden,
            "added": [f"{code}@{line}" for code, line in added], "lost": [f"{code}@{line}" for code, line in lost],
            "error": error}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--invariant", choices=["opacity", "rewrites"], default="opacity")
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
    risked: dict[str, Counter] = {}
    added: dict[str, Counter] = {}
    lost: dict[str, Counter] = {}
    records: list[dict] = []
    errors = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for corpus in corpora:
            jobs = [(args.invariant, name, text, args.per_program, args.seed) for name, text in inputs.corpus(corpus)]
            table[corpus], risked[corpus], added[corpus], lost[corpus] = Counter(), Counter(), Counter(), Counter()
            for name, counts, at_risk, found, error in pool.imap_unordered(check_program, jobs, chunksize=4):
                table[corpus].update(counts)
                risked[corpus].update(at_risk)
                if error:
                    errors += 1
                    print(f"  {name}: not analysed ({error})", file=sys.stderr)
                for record in found:
                    records.append(record)
                    lost[corpus][record["kind"]] += len(record["lost"])
                    if record["added"] or record["error"]:
                        added[corpus][record["kind"]] += 1
                        what = record["error"] or " ".join(record["added"])
                        print(f"  {record['program']}: {record['kind']}@{record['line']} `{record['hidden']}` adds {what}",
                              flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    sampled = "every variant" if args.per_program <= 0 else f"{args.per_program} per program"
    print(f"\n{args.invariant}, seed {args.seed}, {sampled} ({time.perf_counter() - started:.0f} s)\n")
    if args.invariant == "opacity":
        kinds = sorted({kind for counts in table.values() for kind in counts})
        print("| corpus | " + " | ".join(kinds) + " | all |")
        print("| --- |" + " ---: |" * (len(kinds) + 1))
        for corpus in corpora:
            cells = [f"{added[corpus][k]} / {table[corpus][k]}" for k in kinds]
            print(f"| {corpus} | " + " | ".join(cells) + f" | {sum(added[corpus].values())} / {sum(table[corpus].values())} |")
        print("\n(variants that add a finding / variants: each a claim without proof)")
    else:
        print("| corpus | family | variants | adding a finding | findings lost | of |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for corpus in corpora:
            for kind in sorted(table[corpus]):
                share = lost[corpus][kind] / risked[corpus][kind] if risked[corpus][kind] else 0.0
                print(f"| {corpus} | {kind} | {table[corpus][kind]} | {added[corpus][kind]} | {lost[corpus][kind]} "
                      f"({share:.1%}) | {risked[corpus][kind]} |")
        print("\n(a finding added is a claim without proof; \"of\": the findings of the programs rewritten, once per rewrite)")
    if errors:
        print(f"{errors} programs not analysed", file=sys.stderr)
    return 1 if any(sum(counts.values()) for counts in added.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
