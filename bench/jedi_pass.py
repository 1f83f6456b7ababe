"""Prints the jedi (cross-module) pass's latency on a 1,000-line file: cold, and warm after edits.

The file is built from training steps that call the fixture package `rlkit` (tests/crossmodule):
imported helpers, re-exports, star imports, models built elsewhere and held by agent objects.
It is written into a copy of that project so jedi resolves the imports as in a real workspace.

    cold  a new process: jedi, parso and gradguard's cross-module caches empty (the first
          analysis after the editor starts; gradguard's own imports are done before timing)
    warm  the same process, after an edit inside one function (what every keystroke costs)

Usage: python bench/jedi_pass.py [--lines 1000] [--edits 30]
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "tests" / "crossmodule" / "project"

HEADER = '''\
import numpy as np
import tensorflow as tf
from tensorflow import keras

import rlkit
from rlkit import QNetwork, build_q_network, to_numpy
from rlkit.agents import Agent
from rlkit.predict import q_values
from rlkit.star_helpers import *
'''

STEP = '''

def train_step_{i}(states, targets):
    approximator = build_q_network()
    agent = Agent()
    scorer = QNetwork()
    with tf.GradientTape(persistent=True) as tape:
        q = to_numpy(approximator(states))
        p = rlkit.as_array(scorer(states))
        r = squash(agent.scorer(states))
        s = np.asarray(q_values(approximator, states))
        loss = tf.reduce_mean(tf.square(targets - q - p - r - s)) + {i}
    grads = tape.gradient(loss, approximator.trainable_variables)
    more = tape.gradient(loss, scorer.trainable_variables)
    return grads, more
'''


def build(lines: int) -> str:
    parts, i = [HEADER], 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(STEP.format(i=i))
        i += 1
    return "".join(parts)


def measure(path: str, edits: int) -> dict:
    """Runs in the child process: one cold jedi pass, then warm passes after edits."""
    from gradguard.rules.model.inference import Budget, JediResolver
    from gradguard.rules.api import lint

    source = Path(path).read_text()
    lint(source, path)  # imports and rule discovery happen once per process: not part of a pass
    start = time.perf_counter()
    fast = lint(source, path)
    fast_ms = (time.perf_counter() - start) * 1000
    resolver = JediResolver(str(Path(path).parent))
    start = time.perf_counter()
    found = lint(source, path, resolver=resolver, budget=Budget(60.0))
    cold_ms = (time.perf_counter() - start) * 1000
    cold_calls = resolver.stats["jedi_calls"]
    warm = []
    for edit in range(edits):  # type into one function body, as an editor would
        source = source.replace("+ 0\n", f"+ 0 * {edit}\n", 1) if edit == 0 else \
            source.replace(f"+ 0 * {edit - 1}\n", f"+ 0 * {edit}\n", 1)
        start = time.perf_counter()
        lint(source, path, resolver=resolver, budget=Budget(60.0))
        warm.append((time.perf_counter() - start) * 1000)
    return {"fast_ms": fast_ms, "cold_ms": cold_ms, "warm_ms": warm, "found": len(found), "in_file": len(fast),
            "jedi_calls_cold": cold_calls, "jedi_calls_warm": resolver.stats["jedi_calls"] - cold_calls}


def run(lines: int = 1000, edits: int = 30, python: str = sys.executable) -> dict:
    """Measures in a fresh `python` (one with gradguard installed): the figures, and `lines`."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(PROJECT, project)
        path = project / "train_many_steps.py"
        path.write_text(build(lines))
        child = subprocess.run([python, __file__, "--child", str(path), "--edits", str(edits)],
                               capture_output=True, text=True, check=True)
        result = json.loads(child.stdout.strip().splitlines()[-1])
    warm = sorted(result["warm_ms"])
    result["warm_median_ms"] = statistics.median(warm)
    result["warm_p95_ms"] = warm[min(len(warm) - 1, round(0.95 * (len(warm) - 1)))]
    result["lines"] = build(lines).count("\n")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.edits)))
        return
    result = run(args.lines, args.edits)
    print(f"jedi pass on a {result['lines']}-line file calling another package ({args.edits} edits for warm figures)")
    print("| pass | latency | findings | jedi calls |\n|---|---|---|---|")
    print(f"| fast pass (this file only) | {result['fast_ms']:.0f} ms | {result['in_file']} | 0 |")
    print(f"| jedi pass, cold | {result['cold_ms']:.0f} ms | {result['found']} | {result['jedi_calls_cold']} |")
    print(f"| jedi pass, warm after an edit | median {result['warm_median_ms']:.0f} ms, "
          f"p95 {result['warm_p95_ms']:.0f} ms | {result['found']} | {result['jedi_calls_warm']} |")


if __name__ == "__main__":
    main()
