"""TensorFlow as the oracle: generate programs, label them with TensorFlow, compare gradguard's
claims, print the table (tests/oracle/ has the pieces; docs/oracle.md the last long run).

    .venv/bin/python bench/oracle.py --count 10000            # the long run
    .venv/bin/python bench/oracle.py --count 300 --show false  # list the disagreements
    .venv/bin/python bench/oracle.py --program 1234:17         # one program, its label and claims
    .venv/bin/python bench/oracle.py --shrink 1234:17          # the smallest program that still disagrees

Labels are cached in .gradguard_oracle/ (by program text and the TensorFlow side), so a second run
after a change of the analysis runs only gradguard.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from oracle import runner  # noqa: E402
from oracle.generator import generate  # noqa: E402

DEFAULT_SEED = 20261202


def _progress(done: int, total: int) -> None:
    if done == total or done % 100 == 0:
        print(f"\r  TensorFlow: {done}/{total} programs labelled", end="" if done < total else "\n",
              file=sys.stderr, flush=True)


def _one(spec: str):
    seed, index = (int(part) for part in spec.split(":"))
    return generate(seed, index)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--jobs", type=int, default=2, help="TensorFlow worker processes")
    parser.add_argument("--cache", type=Path, default=ROOT / ".gradguard_oracle" / "labels.jsonl")
    parser.add_argument("--show", choices=["false", "missed", "invalid", "all"], action="append", default=[],
                        help="list the programs of that verdict (repeatable)")
    parser.add_argument("--program", metavar="SEED:INDEX", help="print one program, its label and claims")
    parser.add_argument("--shrink", metavar="SEED:INDEX", help="shrink one disagreement")
    parser.add_argument("--where", metavar="DIMENSION=VALUE", action="append", default=[],
                        help="only the programs with that dimension value, or one of several separated by commas "
                             "(repeatable): --where break=stop_gradient --where closure=curried,tuple_helper")
    parser.add_argument("--out", type=Path, help="write the table (markdown) here too")
    args = parser.parse_args(argv)
    cache = runner.LabelCache(args.cache)

    if args.program or args.shrink:
        program = _one(args.program or args.shrink)
        label = runner.label_programs([program], cache, 1)[0]
        verdict = runner.judge(program, label, runner.gradguard_claims(program))
        print(program.source)
        print(f"# dims: {program.dims}")
        print(f"# {verdict.describe()}")
        if args.shrink:
            from oracle.shrink import shrink_verdict

            small = shrink_verdict(verdict, cache)
            print("# shrunk:")
            print(small)
        return 0

    started = time.monotonic()
    verdicts = runner.run(args.seed, args.count, jobs=args.jobs, cache=cache, progress=_progress, start=args.start,
                          where={d: frozenset(v.split(",")) for d, v in (w.split("=", 1) for w in args.where)})
    elapsed = time.monotonic() - started
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "rules"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    import gradguard.rules

    where = Path(gradguard.rules.__file__).resolve().parent
    which = (f"gradguard at {commit}{' (rules/ modified)' if dirty else ''}" if where == ROOT / "rules"
             else f"gradguard from {where} (not this checkout)")
    only = "".join(f", {w}" for w in args.where)
    header = f"seed {args.seed}, programs {args.start}..{args.start + args.count - 1}{only}, {which}, {elapsed:.0f} s"
    text = header + "\n\n" + runner.table(verdicts)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    for verdict in verdicts:
        kind = ("false" if verdict.false_claims else "missed" if verdict.missed else
                "invalid" if not verdict.valid else "agrees")
        if kind in args.show or "all" in args.show:
            print(f"{verdict.program.seed}:{verdict.program.index} {verdict.describe()}"
                  + (f" | {verdict.label.error[:160]}" if kind == "invalid" else ""))
    return 1 if any(v.false_claims for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
