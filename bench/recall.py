"""Recall on the mined programs: of the corpus programs rebuilt from public bug reports (those
with a `# source:` header line), how many gradguard reports exactly as the header says, by
family (tests/programs/README.md); then the same for each held-out sample (`# heldout: N`: threads
mined after the analysis was written, the fairer measure of what users will see).

    .venv/bin/python bench/recall.py [--json OUT] [--compare OLD.json] [PROGRAMS_DIR]

A bad program counts as found when every `expect:` entry is reported at its line and nothing
else is; it counts as partly found when at least one entry is. A correct twin (`ok_*`) counts
as clean when gradguard is silent on it. Run it on an older commit (`git worktree`) with
`--json` and give that file to `--compare` for a before/after table.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from program_headers import entry, notebook_position, notebook_source, parse_header, sorted_entries  # noqa: E402

from gradguard.rules import analyze  # noqa: E402

FAMILIES = {
    "1": "identity by instance",
    "2": "classes",
    "3": "custom layers and models",
    "4": "Keras and TF ops",
    "5": "partial and silent breaks",
    "6": "asked for vs used",
    "7": "decorators and iteration",
    "": "(no family)",
}


def reported(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return sorted_entries(entry(d.code, d.span.line) for d in analyze(text))
    findings = analyze(notebook_source(text))
    return sorted_entries(entry(d.code, *reversed(notebook_position(text, d.span.line))) for d in findings)


def outcome(path: Path) -> dict:
    header = parse_header(path.read_text(encoding="utf-8"))
    got = reported(path)
    want = header["findings"]
    if not want:
        verdict = "clean" if not got else "false"
    elif got == want:
        verdict = "found"
    elif set(got) & set(want):
        verdict = "partly"
    else:
        verdict = "missed"
    return {"name": path.name, "family": header["family"], "source": header["source"],
            "want": want, "got": got, "verdict": verdict, "gap": header["gap"], "heldout": header["heldout"]}


def table(results: list[dict], before: dict[str, dict] | None) -> str:
    by_family: dict[str, list[dict]] = defaultdict(list)
    for result in results:
        by_family[result["family"]].append(result)
    head = "| family | bad programs | found | partly | missed | correct twins silent |"
    if before is not None:
        head = "| family | bad programs | found before | found now | partly now | missed now | correct twins silent |"
    lines = [head, "|" + " --- |" * (head.count("|") - 1)]
    for family in sorted(by_family, key=lambda f: (f == "", f)):
        rows = by_family[family]
        bad = [r for r in rows if r["want"]]
        ok = [r for r in rows if not r["want"]]
        count = lambda verdict, rs=bad: sum(r["verdict"] == verdict for r in rs)  # noqa: E731
        silent = f"{count('clean', ok)} of {len(ok)}"
        label = f"{family} {FAMILIES.get(family, '')}".strip()
        if before is None:
            lines.append(f"| {label} | {len(bad)} | {count('found')} | {count('partly')} | {count('missed')} | {silent} |")
        else:
            earlier = sum(before.get(r["name"], {}).get("verdict") == "found" for r in bad)
            lines.append(f"| {label} | {len(bad)} | {earlier} | {count('found')} | {count('partly')} | "
                         f"{count('missed')} | {silent} |")
    bad = [r for r in results if r["want"]]
    lines.append(f"\n{sum(r['verdict'] == 'found' for r in bad)} of {len(bad)} mined bad programs found exactly; "
                 f"{sum(r['verdict'] == 'false' for r in results)} correct twins with a false finding.")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="?", type=Path, default=ROOT / "tests" / "programs")
    parser.add_argument("--json", type=Path, help="write every program's outcome to this file")
    parser.add_argument("--compare", type=Path, help="an earlier --json file: adds a 'found before' column")
    args = parser.parse_args()
    paths = sorted(p for p in args.programs.iterdir() if p.suffix in (".py", ".ipynb"))
    results = [outcome(p) for p in paths if parse_header(p.read_text(encoding="utf-8"))["source"]]
    if not results:
        print(f"no program in {args.programs} has a `# source:` line", file=sys.stderr)
        return 2
    before = None
    if args.compare:
        before = {r["name"]: r for r in json.loads(args.compare.read_text(encoding="utf-8"))}
    print(table(results, before))
    for sample in sorted({r["heldout"] for r in results if r["heldout"]}):
        held = [r for r in results if r["heldout"] == sample]
        bad = [r for r in held if r["want"]]
        ok = [r for r in held if not r["want"]]
        print(f"held-out sample {sample}: {sum(r['verdict'] == 'found' for r in bad)} of {len(bad)} bad programs "
              f"found exactly; {sum(r['verdict'] == 'clean' for r in ok)} of {len(ok)} correct twins silent")
    for result in results:
        if result["want"] and result["verdict"] != "found":
            why = f" — gap: {result['gap']}" if result["gap"] else ""
            print(f"  {result['verdict']}: {result['name']} (want {' '.join(result['want'])}, "
                  f"got {' '.join(result['got']) or 'nothing'}){why}")
        elif result["verdict"] == "false":
            print(f"  false finding: {result['name']} (got {' '.join(result['got'])})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
