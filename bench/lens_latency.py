"""The gradient lens's latency in the gradguard server (issue 16): hover and inlay hints over stdio.

Issue 16's budget: a hover or inlay-hint request on a 5,000-line file answers in under 20 ms (they
answer from the last analysis; no analysis per request). On one generated training file:

* the server opens it, publishes its diagnostics and goes idle (its jedi pass done);
* `textDocument/hover` on names inside the file's `tf.GradientTape` blocks, spread over the file,
  one after another (the first hover of an analysis indexes its values by line: it is kept apart);
* `textDocument/inlayHint` for the whole file (an editor asks for the visible lines: the worst case);
* one-character edits, each answered by its diagnostics, then one hover: the first hover after an
  analysis, the one that indexes.

Each latency is from writing the request to reading its answer. Figures to read, never assertions.

    python3 bench/lens_latency.py FILE.py [FILE.py ...]   # alone; `bash bench/run --only lens` reports it
"""
from __future__ import annotations

import ast
import asyncio
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from lsp_client import LspClient  # noqa: E402

BUDGET = 0.020  # seconds: issue 16, point 5
LENS_CAPABILITIES = {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                                      "inlayHint": {"dynamicRegistration": False}}}


@dataclass
class LensTiming:
    lines: int = 0
    hovers: list[float] = field(default_factory=list)        # steady state: the analysis indexed
    answered: int = 0                                         # hovers with something to say
    first_hovers: list[float] = field(default_factory=list)  # the first hover after each analysis
    hints: list[float] = field(default_factory=list)         # whole-file inlay hints
    hint_count: int = 0
    error: str | None = None

    @property
    def every_hover(self) -> list[float]:
        return self.hovers + self.first_hovers


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def ms(value: float) -> str:
    value *= 1000
    return f"{value:.1f} ms" if value < 10 else f"{value:.0f} ms"


def tape_names(text: str, count: int) -> list[tuple[int, int]]:
    """(line, character) of `count` names inside `tf.GradientTape` blocks, spread over the file."""
    spots = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                "GradientTape" in ast.unparse(item.context_expr) for item in node.items):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name):
                    spots.add((inner.lineno - 1, inner.col_offset))  # the generated files are ASCII
    ordered = sorted(spots)
    step = max(1, len(ordered) // count)
    return ordered[::step][:count]


async def measure(command: list[str], path: Path, root: Path, stderr: Path, env: dict | None = None,
                  hovers: int = 60, hints: int = 30, edits: int = 10) -> LensTiming:
    result = LensTiming()
    text = path.read_text(encoding="utf-8")
    result.lines = text.count("\n")
    client = LspClient(command, cwd=root, stderr_path=stderr)
    await client.start(env)
    try:
        await asyncio.wait_for(client.initialize(root, extra_capabilities=LENS_CAPABILITIES), 60)
        uri, _ = await client.open(path, text, 1)
        await client.diagnostics(uri, 1, 0, timeout=300)
        await client.wait_idle(1.0, limit=120)  # the jedi pass too
        spots = tape_names(text, hovers)
        document = {"uri": uri}

        async def hover(line: int, character: int) -> tuple[float, object]:
            sent = time.perf_counter()
            answer = await asyncio.wait_for(client.request(
                "textDocument/hover", {"textDocument": document, "position": {"line": line, "character": character}}),
                60)
            return time.perf_counter() - sent, answer

        took, _ = await hover(*spots[0])
        result.first_hovers.append(took)
        for spot in spots:
            took, answer = await hover(*spot)
            result.hovers.append(took)
            result.answered += answer is not None
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": result.lines + 1, "character": 0}}
        for _ in range(hints):
            sent = time.perf_counter()
            answer = await asyncio.wait_for(client.request(
                "textDocument/inlayHint", {"textDocument": document, "range": whole}), 60)
            result.hints.append(time.perf_counter() - sent)
            result.hint_count = len(answer or [])
        line, column, _ = generate.typing_spot(text)
        for i in range(edits):
            after = len(client.published)
            await client.insert(uri, i + 2, line, column + i, "x")
            await client.diagnostics(uri, i + 2, after, timeout=60)
            took, _ = await hover(*spots[(i * 7) % len(spots)])
            result.first_hovers.append(took)
    except (asyncio.TimeoutError, ConnectionError, RuntimeError, ValueError, IndexError) as error:
        result.error = f"{type(error).__name__}: {error}"
    finally:
        await client.stop()
    return result


def hover_cell(timing: LensTiming | None) -> str:
    if timing is None:
        return "—"
    if timing.error or not timing.hovers:
        return f"failed ({(timing.error or 'no hover')[:60]})"
    return (f"{ms(median(timing.hovers))} / {ms(p95(timing.hovers))} ({timing.answered} of {len(timing.hovers)} "
            f"hovers answered); first after an analysis {ms(median(timing.first_hovers))} / "
            f"{ms(max(timing.first_hovers))} max")


def hints_cell(timing: LensTiming | None) -> str:
    if timing is None:
        return "—"
    if timing.error or not timing.hints:
        return f"failed ({(timing.error or 'no request')[:60]})"
    return f"{ms(median(timing.hints))} / {ms(p95(timing.hints))} ({timing.hint_count} hints)"


def budget_lines(lens: dict, verdict) -> None:
    """The issue's budget beside the others: `verdict(name, ok, detail)` for hover and inlay hints."""
    timing = lens.get(5_000)
    name = "a lens request answers in < 20 ms, 5,000 lines (issue 16)"
    if timing is None or timing.error or not timing.hovers or not timing.hints:
        verdict(f"hover: {name}", None, "not run" if timing is None else (timing.error or "no figure")[:80])
        verdict(f"inlay hints: {name}", None, "not run" if timing is None else (timing.error or "no figure")[:80])
        return
    every = timing.every_hover
    verdict(f"hover: {name}", p95(every) < BUDGET,
            f"{ms(median(timing.hovers))} median, {ms(p95(every))} p95 counting the first hover after each "
            f"analysis ({ms(max(timing.first_hovers))} the slowest of those)")
    verdict(f"inlay hints: {name}", p95(timing.hints) < BUDGET,
            f"{ms(median(timing.hints))} median, {ms(p95(timing.hints))} p95 for the whole file's "
            f"{timing.hint_count} hints")


def main(argv: list[str]) -> int:
    command = [sys.executable, "-m", "gradguard.server"]
    for name in argv:
        path = Path(name).resolve()
        timing = asyncio.run(measure(command, path, path.parent, path.with_suffix(".lens.stderr")))
        print(f"{path.name} ({timing.lines:,} lines): hover {hover_cell(timing)}; inlay hints {hints_cell(timing)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
