"""Prints `gradguard check` wall time on 1,000- and 5,000-line TensorFlow files.

The files are built from the TensorFlow-verified corpus in tests/programs (each program's body
wrapped in its own function, so the file is one module of many training steps). This is the
quick figure for the analyzer; the full benchmark suite (servers, other tools) is issue 6.
Usage: python bench/check_time.py
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.py"))


def training_file(lines: int) -> str:
    parts, count, index = ["import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"], 3, 0
    while count < lines:
        program = PROGRAMS[index % len(PROGRAMS)].read_text(encoding="utf-8")
        body = textwrap.indent(program, "    ")
        chunk = f"\ndef step_{index}():\n{body}\n"
        parts.append(chunk)
        count += chunk.count("\n")
        index += 1
    return "".join(parts)


def time_check(path: Path, runs: int = 5) -> float:
    gradguard = Path(sys.executable).parent / "gradguard"
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(gradguard), "check", "--exit-zero", "-q", str(path)], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'lines':>7} {'median wall time':>18}")
        for lines in (1000, 5000):
            path = Path(folder) / f"train_{lines}.py"
            path.write_text(training_file(lines), encoding="utf-8")
            real = path.read_text().count("\n")
            print(f"{real:>7} {time_check(path) * 1000:>15.0f} ms")


if __name__ == "__main__":
    main()
