"""The long fuzzer: mutate the corpus for N minutes and check every property on every input.

    .venv/bin/python tests/fuzz/fuzz.py --minutes 10 [--seed S] [--no-cli] [--json figures.json]
    .venv/bin/python tests/fuzz/fuzz.py --replay .fuzz-crashes/<id>/sample.json

Each new failure (deduplicated by its signature: property, exception type, innermost gradguard
frame) is saved under .fuzz-crashes/<id>/ (gitignored): the input as a file, `sample.json`
(kind, program, seed and the exact text, to replay it), a line-minimised input when the
minimiser could shrink it, and `report.txt`. The figures are printed at the end.

Known failures (reported to the lead, reproduced by strict xfail tests in test_fuzz.py) are
counted apart, so a long run shows what is new.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from mutations import ALL_KINDS, TEXT_KINDS, Sample, corpus, make_sample, random_sample  # noqa: E402
from properties import Checker, Failure, Figures, known_bug, parses  # noqa: E402

from gradguard.rules.api import MAX_FIX_ROUNDS  # noqa: E402

CRASHES = HERE.parent.parent / ".fuzz-crashes"
INPUT_TIMEOUT = 10       # seconds for one ordinary input (they take well under one)
HEAVY_TIMEOUT = 150      # a 50,000-line file with its reduced properties takes ~40 s


def run(minutes: float, seed: int, use_cli: bool, kinds: tuple[str, ...], verbose: bool) -> tuple[Figures, dict]:
    rng = random.Random(seed)
    started = time.monotonic()
    deadline = started + minutes * 60
    saved: dict[str, dict] = {}
    figures = Figures()
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="gradguard-fuzz-") as tmp:
        checker = Checker(cli=use_cli, tmp=Path(tmp), max_fixes=None, time_limit=INPUT_TIMEOUT,
                          heavy_time_limit=HEAVY_TIMEOUT)
        while time.monotonic() < deadline:
            sample = random_sample(rng, kinds)
            began = time.monotonic()
            failures = checker.check(sample)
            seconds[sample.kind] = seconds.get(sample.kind, 0.0) + time.monotonic() - began
            for failure in failures:
                _record(failure, sample, saved, verbose)
        figures.merge(checker.figures)
    elapsed = time.monotonic() - started
    return figures, {"seconds": elapsed, "saved": saved, "seconds_per_kind": seconds, "seed": seed}


def _record(failure: Failure, sample: Sample, saved: dict, verbose: bool) -> None:
    if failure.signature in saved:
        saved[failure.signature]["count"] += 1
        return
    bug = known_bug(failure)
    folder = _save(failure, sample) if bug is None else None
    saved[failure.signature] = {"count": 1, "known": bug.id if bug else None, "path": str(folder) if folder else None,
                                "sample": sample.label}
    if verbose or bug is None:
        status = f"known {bug.id}" if bug else f"NEW, saved to {folder}"
        print(f"[{status}] {failure.signature}  ({sample.label})", file=sys.stderr, flush=True)


def _save(failure: Failure, sample: Sample) -> Path:
    ident = hashlib.sha1(failure.signature.encode()).hexdigest()[:12]
    folder = CRASHES / ident
    folder.mkdir(parents=True, exist_ok=True)
    record = {"kind": sample.kind, "program": sample.program, "seed": sample.seed, "suffix": sample.suffix,
              "signature": failure.signature, "text": sample.text,
              "data": sample.data.decode("latin-1") if sample.data is not None and sample.text is None else None}
    (folder / "sample.json").write_text(json.dumps(record, indent=1))
    if sample.data is not None:
        (folder / ("input" + sample.suffix)).write_bytes(sample.data)
    if sample.text is not None and len(sample.text) < 200_000 and not failure.signature.startswith("timeout"):
        small = minimise(sample, failure.signature)
        if small is not None and small != sample.text:
            (folder / "minimised.py").write_text(small, encoding="utf-8", errors="surrogatepass")
    (folder / "report.txt").write_text(f"{sample.label}\n{failure}\n", encoding="utf-8", errors="replace")
    return folder


def minimise(sample: Sample, signature: str, budget: float = 20.0) -> str | None:
    """Delete chunks of lines while the same failure signature still shows (ddmin, line-wise)."""
    checker = Checker(cli=False, server="server" in signature, max_fixes=None, time_limit=budget)
    deadline = time.monotonic() + budget

    def fails(text: str) -> bool:
        probe = Sample(sample.kind, sample.program, sample.seed, text, None, ".py")
        try:
            return any(f.signature == signature for f in checker.check(probe))
        except Exception:  # noqa: BLE001
            return False

    lines = sample.text.splitlines(keepends=True)
    if not fails(sample.text):
        return None
    chunk = max(len(lines) // 2, 1)
    while chunk >= 1 and time.monotonic() < deadline:
        index, shrunk = 0, False
        while index < len(lines) and time.monotonic() < deadline:
            candidate = lines[:index] + lines[index + chunk:]
            if candidate and fails("".join(candidate)):
                lines, shrunk = candidate, True
            else:
                index += chunk
        if not shrunk:
            chunk //= 2
    return "".join(lines)


def replay(path: Path) -> int:
    record = json.loads(path.read_text())
    data = record["data"].encode("latin-1") if record.get("data") else None
    text = record.get("text")
    if text is None and data is None:
        sample = make_sample(record["kind"], next(p for p in corpus() if p.name == record["program"]), record["seed"])
    else:
        sample = Sample(record["kind"], record["program"], record["seed"], text,
                        data if data is not None else (text.encode("utf-8", "surrogatepass") if text else None),
                        record.get("suffix", ".py"))
    failures = Checker(cli=True, max_fixes=None).check(sample)
    for failure in failures:
        print(failure, end="\n\n")
    print(f"{len(failures)} failure(s); the text parses: {parses(text) if text is not None else 'n/a'}")
    return 1 if failures else 0


def report(figures: Figures, meta: dict) -> str:
    seconds = meta["seconds"]
    total = sum(figures.inputs.values())
    lines = [f"gradguard fuzz: seed {meta['seed']}, {seconds / 60:.1f} min, {total} inputs "
             f"({total / seconds:.1f}/s)", "", f"{'kind':<22}{'inputs':>8}{'parsable':>10}{'s/input':>10}"]
    for kind in sorted(figures.inputs, key=lambda k: -figures.inputs[k]):
        n = figures.inputs[kind]
        per = meta["seconds_per_kind"].get(kind, 0.0) / n
        parsable = figures.parsable[kind] if kind in TEXT_KINDS else "-"  # bytes, notebooks: CLI only
        lines.append(f"{kind:<22}{n:>8}{parsable:>10}{per:>10.3f}")
    lines += ["", f"diagnostics checked (spans, all entry points): {figures.diagnostics}",
              f"single fixes applied and checked: {figures.fixes} ({figures.edits} edits)",
              f"fix-all runs checked (parse, idempotence): {figures.fix_runs}",
              f"fix-alls needing more than {MAX_FIX_ROUNDS} rounds (but ending): {figures.long_fix_chains}",
              f"CLI invocations: {figures.cli_runs}", f"server snapshots: {figures.server_runs}", ""]
    saved = meta["saved"]
    new = {s: v for s, v in saved.items() if not v["known"]}
    known = {s: v for s, v in saved.items() if v["known"]}
    lines.append(f"failures: {len(new)} new signature(s), {len(known)} known")
    for signature, info in sorted(new.items()):
        lines.append(f"  NEW   {signature}  x{info['count']}  -> {info['path']}")
    for signature, info in sorted(known.items()):
        lines.append(f"  known {info['known']}: {signature}  x{info['count']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-cli", action="store_true", help="skip the `gradguard check` properties (faster)")
    parser.add_argument("--kinds", help="comma-separated mutation kinds (default: all)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--replay", metavar="SAMPLE_JSON", help="re-run one saved sample and print its failures")
    parser.add_argument("-v", "--verbose", action="store_true", help="print known failures as they happen too")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    if args.replay:
        return replay(Path(args.replay))
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    kinds = tuple(args.kinds.split(",")) if args.kinds else ALL_KINDS
    unknown = set(kinds) - set(ALL_KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}; known: {', '.join(ALL_KINDS)}")
    figures, meta = run(args.minutes, seed, not args.no_cli, kinds, args.verbose)
    print(report(figures, meta))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "seed": seed, "seconds": meta["seconds"], "inputs": dict(figures.inputs),
            "parsable": dict(figures.parsable), "diagnostics": figures.diagnostics, "fixes": figures.fixes,
            "edits": figures.edits, "fix_runs": figures.fix_runs, "cli_runs": figures.cli_runs,
            "server_runs": figures.server_runs, "long_fix_chains": figures.long_fix_chains,
            "failures": meta["saved"],
        }, indent=1))
    return 1 if any(not v["known"] for v in meta["saved"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
