"""How long the file walk takes alone (no analysis): `python bench/walk.py [OUT_DIR]`.

Builds a tree of 200 folders x 50 files (10,000 .py files) with a .gitignore at the top and in
every tenth folder, plus folders every project has that the walk must skip (.venv, build,
.ipynb_checkpoints, __pycache__), then times `Walk.add_argument` on it five times and prints the
best and median in milliseconds with the number of files found. Deterministic: same tree each run.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from gradguard.rules.project.config import Config
from gradguard.rules.project.files import Walk

TOP_GITIGNORE = "*.log\n/generated/\nbuild/\ndata/**/*.py\n!data/keep/*.py\n# comment\n*_pb2.py\n"
SUB_GITIGNORE = "scratch_*.py\n!scratch_keep.py\n/local/\n"


def build(root: Path) -> None:
    (root / ".gitignore").write_text(TOP_GITIGNORE)
    for i in range(200):
        folder = root / f"pkg{i:03d}" / ("data" if i % 7 == 0 else "src")
        folder.mkdir(parents=True, exist_ok=True)
        if i % 10 == 0:
            (folder / ".gitignore").write_text(SUB_GITIGNORE)
        for j in range(50):
            name = ("scratch_" if j % 9 == 0 else "mod_") + f"{j:02d}.py"
            (folder / name).write_text("x = 1\n")
    for skipped in (".venv/lib", "build/lib", "nb/.ipynb_checkpoints", "pkg000/__pycache__"):
        (root / skipped).mkdir(parents=True, exist_ok=True)
        for j in range(100):
            (root / skipped / f"f{j}.py").write_text("x = 1\n")


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="gradguard-walk-"))
    root.mkdir(parents=True, exist_ok=True)
    if not (root / ".gitignore").exists():
        build(root)
    times, found = [], 0
    for _ in range(5):
        started = time.perf_counter()
        walk = Walk(Config(), warn=lambda message: None)
        walk.add_argument(str(root))
        times.append((time.perf_counter() - started) * 1000)
        found = len(walk.files)
    print(f"{root}: {found} files found; walk best {min(times):.0f} ms, median {statistics.median(times):.0f} ms")


if __name__ == "__main__":
    main()
