"""Where gradguard spends its time: py-spy (from .venv-bench) samples it and this prints the
functions with the largest share of the samples.

    python3 bench/profile.py check  [FILE]   # `gradguard check FILE` (default: the 5,000-line input;
                                             # --no-jedi: the fast pass alone)
    python3 bench/profile.py server [FILE]   # the language server while 30 keystrokes are typed
                                             # into FILE (default: the 1,000-line input)

Run `bash bench/run` (or --quick) once first: it sets up .venv-bench and generates the inputs.
Options: --project DIR (the checkout whose .venv runs gradguard), --out DIR (the inputs' folder),
--top N (rows to print), --rate HZ (samples per second).
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
import run  # noqa: E402
from lsp_client import LspClient  # noqa: E402


PLUMBING = ("Thread._bootstrap", "Thread.run", "_worker (", "_WorkItem.run", "<module> (gradguard")


def summarise(raw: Path, top: int, thread: str | None = None) -> str:
    """Inclusive and self shares per function from py-spy's raw (collapsed stacks) output."""
    total = 0
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    library: collections.Counter[str] = collections.Counter()
    threads: collections.Counter[str] = collections.Counter()
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        samples = int(count)
        total += samples
        raw_frames = [frame for frame in stack.split(";") if frame]
        if raw_frames and raw_frames[0].startswith("thread ("):   # py-spy --threads
            name = raw_frames.pop(0).split("): ", 1)[-1].rstrip("_0123456789")
            threads[name] += samples
            if thread and not name.startswith(thread):
                continue
        frames = [_name(frame) for frame in raw_frames]
        for name in set(frames):
            if not name.startswith(PLUMBING):
                inclusive[name] += samples
        if frames:
            own[frames[-1]] += samples
            library[_library(raw_frames[-1])] += samples
    if not total:
        return "no samples (is ptrace allowed here? py-spy needs it)"
    out = [f"{total} samples (busy threads only)"]
    if threads:
        total = sum(threads.values())
        out += ["", "by thread:"] + [f"  {n / total:6.1%}  {name}" for name, n in threads.most_common()]
    if thread:
        total = sum(n for name, n in threads.items() if name.startswith(thread)) or 1
        out += ["", f"below: the {thread} thread only ({total} samples)"]
    out += ["", "inclusive (the function and what it calls):"]
    out += [f"  {n / total:6.1%}  {name}" for name, n in inclusive.most_common(top)]
    out += ["", "self time by library (where the leaf frame's code lives):"]
    out += [f"  {n / total:6.1%}  {name}" for name, n in library.most_common(top)]
    out += ["", "self (the function's own code):"]
    out += [f"  {n / total:6.1%}  {name}" for name, n in own.most_common(top)]
    return "\n".join(out)


def _library(frame: str) -> str:
    path = frame.partition(" (")[2].rsplit(":", 1)[0]
    parts = Path(path).parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].split(".")[0]
    for mine in ("rules", "server"):
        if mine in parts and (len(parts) - parts.index(mine)) == 2:
            return f"gradguard.{mine}.{Path(path).stem}"
    if path.startswith("<frozen"):
        return "imports (importlib)"
    return f"stdlib {Path(path).stem}" if path else "?"


def _name(frame: str) -> str:
    # "function (path/to/module.py:123)" -> "function (to/module.py)"
    function, _, where = frame.partition(" (")
    path = where.rsplit(":", 1)[0]
    short = "/".join(Path(path).parts[-2:]) if path else "?"
    return f"{function} ({short})"


def profile_check(target: Path, raw: Path, rate: int, extra: list[str]) -> None:
    gradguard = str(run.bin_path(run.VENV, "gradguard"))
    # --no-cache: profile the analysis, not a cache hit; --subprocesses: a folder's worker processes
    subprocess.run([str(run.bin_path(run.BENCH_VENV, "py-spy")), "record", "--rate", str(rate), "--format", "raw",
                    "--full-filenames", "--subprocesses", "--output", str(raw), "--",
                    gradguard, "check", "--exit-zero", "-q", "--no-cache", *extra, str(target)],
                   stdout=subprocess.DEVNULL, env=run.child_env(), check=True)


async def profile_server(target: Path, raw: Path, rate: int) -> None:
    command = [str(run.bin_path(run.VENV, "python")), "-m", "gradguard.server"]
    client = LspClient(command, cwd=target.parent)
    await client.start(run.child_env())
    spy = None
    try:
        await client.initialize(target.parent)
        text = target.read_text(encoding="utf-8")
        line, column, _ = generate.typing_spot(text)
        uri, _ = await client.open(target, text, 1)
        await client.diagnostics(uri, 1, 0, timeout=300)
        await client.wait_idle(1.0, limit=120)   # the open's jedi pass done, as in bench/run
        spy = subprocess.Popen([str(run.bin_path(run.BENCH_VENV, "py-spy")), "record", "--rate", str(rate),
                                "--format", "raw", "--full-filenames", "--threads", "--output", str(raw),
                                "--pid", str(client.pid)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await asyncio.sleep(1.0)   # py-spy attaches
        for i in range(30):
            after = len(client.published)
            await client.insert(uri, i + 2, line, column + i, run.EDIT_TEXT[i])
            await client.diagnostics(uri, i + 2, after, timeout=120)
    finally:
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(30)
        await client.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/profile.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["check", "server"])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--project", type=Path, default=run.ROOT)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "gradguard-bench")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--rate", type=int, default=250)
    parser.add_argument("--no-jedi", action="store_true", help="check: pass --no-jedi (the fast pass alone)")
    parser.add_argument("--thread", help="server: only this thread below the per-thread split, "
                                         "e.g. gradguard-analysis (the fast pass) or gradguard-jedi")
    args = parser.parse_args(argv)
    run.PROJECT = args.project.resolve()
    run.VENV = run.PROJECT / ".venv"
    if not run.bin_path(run.BENCH_VENV, "py-spy").exists():
        raise SystemExit("bench/profile.py: .venv-bench has no py-spy; run `bash bench/run --quick` first")
    target = args.file
    if target is None:
        size = 5_000 if args.what == "check" else 1_000
        target = args.out / "full" / f"train_{size}.py"
        if not target.exists():
            text, _ = generate.training_file(size, seed=size)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    raw = Path(tempfile.mkstemp(suffix=".txt", prefix="gradguard-profile-")[1])
    started = time.perf_counter()
    if args.what == "check":
        profile_check(target.resolve(), raw, args.rate, ["--no-jedi"] if args.no_jedi else [])
    else:
        asyncio.run(profile_server(target.resolve(), raw, args.rate))
    print(f"{args.what} on {target} ({time.perf_counter() - started:.1f} s, raw stacks in {raw})")
    print(summarise(raw, args.top, args.thread))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
