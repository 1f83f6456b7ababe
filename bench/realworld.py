"""gradguard on real public TensorFlow/Keras repositories: one table, repeatable (docs/realworld.md).

    python3 bench/realworld.py                               # every repository of bench/realworld.toml
    python3 bench/realworld.py --json /tmp/before.json       # ... and keep every finding
    python3 bench/realworld.py --compare /tmp/before.json    # before/after, finding by finding
    python3 bench/realworld.py --only keras --only tf2rl     # a subset (OWNER/NAME or NAME)

Each repository is pinned by commit in bench/realworld.toml. Its snapshot is a git directory at
MIRROR/OWNER+NAME/repo (--mirror, default ../.mirror beside this checkout); the pinned commit's
files are exported into a temporary folder, or into --work DIR, where they are kept and reused,
and checked with `gradguard check --no-cache --format json --exit-zero -q` of --python's
environment (default .venv): default settings, every file analysed. Progress goes to stderr, the
report (markdown) to stdout.

Exit status: 0 when every repository was checked, 1 when one was missing or its check failed
(the others still run and are reported), 2 for bad input (options, list file, JSON file, a
gradguard that does not start). Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_LIST = HERE / "realworld.toml"
DEFAULT_MIRROR = ROOT.parent / ".mirror"
DEFAULT_PYTHON = ROOT / ".venv" / "bin" / "python"
RESULT_FORMAT = 2  # bumped when the JSON layout changes, so old files are refused, not misread

# An empty config passed with --config: every repository is checked with gradguard's defaults, and
# the export's folder is the project root (no pyproject.toml or .gitignore of folders above the
# work folder can change what is checked). Written into the export; it is not a Python file.
DEFAULTS_CONFIG = ".realworld-defaults.toml"

# gradguard's wording of some findings follows set order, which string hashing randomizes per
# process (one GG201 message named a different model in each run). A fixed seed keeps two runs of
# the same code identical, so that --compare shows only what a change did.
HASH_SEED = "0"

# The fields kept per finding: enough to tell one finding from another across runs.
FINDING_FIELDS = ("path", "cell", "line", "code", "message")  # "cell": a notebook's (None for .py files)

# gradguard's own walk (the one `check` runs), in its own interpreter. It is internal API, so when
# it fails to import or run, the files are counted here instead and the table says so.
WALK_SNIPPET = """
import sys
from pathlib import Path
from gradguard.rules.project.config import load_config_file
from gradguard.rules.project.files import Walk
walk = Walk(load_config_file(Path(sys.argv[2])), warn=lambda message: None)
walk.add_argument(sys.argv[1])
print(len(walk.files))
"""
WALKED_BY_GRADGUARD = "gradguard's own file walk (its .gitignore handling and default excludes)"
# The fallback: gradguard's default excludes at the time of writing, without .gitignore files.
USUAL_EXCLUDES = {".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", ".tox",
                  ".mypy_cache", "site-packages", ".gradguard_cache"}
WALKED_HERE = ("bench/realworld.py: *.py and *.ipynb outside " + ", ".join(sorted(USUAL_EXCLUDES))
               + " (.gitignore files not applied)")


class BadInput(Exception):
    """A problem with what the run was given; main() prints it on one line and exits 2."""


def log(message: str) -> None:
    print(f"realworld: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The list of repositories


@dataclass(frozen=True)
class Repository:
    name: str         # OWNER/NAME
    commit: str       # 40 hex digits
    description: str

    @property
    def folder(self) -> str:
        return self.name.replace("/", "+")


def read_list(path: Path) -> list[Repository]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BadInput(f"{path}: cannot read the list of repositories: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: not valid TOML: {error}") from None
    entries = data.get("repository")
    if not isinstance(entries, list) or not entries:
        raise BadInput(f"{path}: expected [[repository]] tables with name, commit and description")
    return [_repository(path, number, entry) for number, entry in enumerate(entries, 1)]


def _repository(path: Path, number: int, entry: object) -> Repository:
    where = f"{path}: repository {number}"
    if not isinstance(entry, dict) or set(entry) != {"name", "commit", "description"}:
        raise BadInput(f"{where}: expected exactly the keys name, commit and description")
    if not all(isinstance(value, str) for value in entry.values()):
        raise BadInput(f"{where}: name, commit and description must be strings")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", entry["name"]):
        raise BadInput(f"{where}: name {entry['name']!r} is not OWNER/NAME")
    if not re.fullmatch(r"[0-9a-f]{40}", entry["commit"]):
        raise BadInput(f"{where}: commit {entry['commit']!r} is not 40 lowercase hex digits")
    return Repository(entry["name"], entry["commit"], entry["description"])


def selected(names: list[str], only: list[str]) -> set[str]:
    """The names --only picks (OWNER/NAME or NAME, any case); all of them without --only."""
    if not only:
        return set(names)
    wanted = {word.strip().lower() for option in only for word in option.split(",") if word.strip()}
    chosen = {name for name in names if name.lower() in wanted or name.split("/")[1].lower() in wanted}
    known = {name.lower() for name in names} | {name.split("/")[1].lower() for name in names}
    unknown = sorted(wanted - known)
    if unknown:
        raise BadInput(f"--only {', '.join(unknown)}: not in the list ({', '.join(names)})")
    return chosen


# ---------------------------------------------------------------------------------------------
# The gradguard under test


@dataclass(frozen=True)
class Gradguard:
    python: str       # as given, made absolute: the runs happen in other folders
    executable: str   # the `gradguard` console script beside that interpreter
    version: str
    commit: str       # of the checkout its package is imported from, when it is one


def find_gradguard(python: str) -> Gradguard:
    located = shutil.which(python)
    if located is None:
        raise BadInput(f"--python {python}: no such interpreter")
    # Not resolved: a venv's python is a symlink to the system's, and its scripts sit beside the link.
    interpreter = os.path.abspath(located)
    executable = os.path.join(os.path.dirname(interpreter), "gradguard")
    if not os.access(executable, os.X_OK):
        raise BadInput(f"--python {python}: no gradguard beside it ({executable}); "
                       "pip install -e . into that environment")
    done = subprocess.run([executable, "--version"], capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise BadInput(f"{executable} --version failed (exit {done.returncode}): {last_line(done.stderr)}")
    return Gradguard(interpreter, executable, done.stdout.strip(), analyzer_commit(interpreter))


def analyzer_commit(python: str) -> str:
    """The short commit of the gradguard sources that `python` imports, and whether they differ from it."""
    where = subprocess.run([python, "-c", "import os, gradguard.rules as r; print(os.path.dirname(r.__file__))"],
                           capture_output=True, text=True)
    folder = where.stdout.strip()
    if where.returncode != 0 or not folder:
        return "unknown"
    head = subprocess.run(["git", "-C", folder, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown (not a git checkout)"
    # Only the analyzer's own folder: edits elsewhere (tests, docs) do not change what `check` finds.
    changes = subprocess.run(["git", "-C", folder, "status", "--porcelain", "--untracked-files=no", "--", "."],
                             capture_output=True, text=True)
    dirty = " (with uncommitted changes to the analyzer)" if changes.stdout.strip() else ""
    return head.stdout.strip() + dirty


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


# ---------------------------------------------------------------------------------------------
# One repository: snapshot -> export -> check


@dataclass
class Outcome:
    name: str
    commit: str
    description: str
    status: str = "ok"                  # ok | missing (no snapshot or commit) | failed (export or check)
    problem: str = ""                   # why it is not ok, one line
    files: int | None = None
    files_counted_by: str = ""
    seconds: float | None = None        # wall time of `gradguard check`; None when it gave no report
    findings: list[dict] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)  # files of the commit the snapshot lacks


class StepFailed(Exception):
    """One repository's export or check went wrong; its row says why and the run goes on."""


def measure_one(repo: Repository, gradguard: Gradguard, mirror: Path, work: Path, timeout: float) -> Outcome:
    outcome = Outcome(repo.name, repo.commit, repo.description)
    snapshot = mirror / repo.folder / "repo"
    missing = missing_snapshot(snapshot, repo.commit)
    if missing:
        log(f"{repo.name}: {missing}")
        outcome.status, outcome.problem = "missing", missing
        return outcome
    try:
        blobs = commit_blobs(snapshot, repo.commit)
        outcome.absent = absent_paths(snapshot, blobs)
        if outcome.absent:
            log(f"{repo.name}: {absence(outcome.absent)}: {', '.join(outcome.absent)}")
        tree = export(snapshot, repo, blobs, work)
        outcome.files, outcome.files_counted_by = count_files(gradguard, tree)
        log(f"{repo.name}: checking {outcome.files} files")
        outcome.findings, outcome.seconds, problem = check(gradguard, tree, timeout)
        if problem:
            raise StepFailed(problem)
    except StepFailed as error:
        outcome.status, outcome.problem = "failed", str(error)
        log(f"{repo.name}: failed: {error}")
    return outcome


def absence(absent: list[str]) -> str:
    checkable = sum(path.endswith((".py", ".ipynb")) for path in absent)
    files = "file" if len(absent) == 1 else "files"
    return f"{len(absent)} {files} absent from the snapshot, {checkable or 'none'} of them .py/.ipynb"


def missing_snapshot(snapshot: Path, commit: str) -> str:
    """Why the pinned commit cannot be read from the mirror, or '' when it can."""
    fetch = f"fetch it as a git snapshot into {snapshot}"
    if not snapshot.is_dir():
        return f"no snapshot; {fetch}"
    found = subprocess.run(["git", "-C", str(snapshot), "cat-file", "-e", f"{commit}^{{commit}}"],
                           capture_output=True)
    if found.returncode != 0:
        return f"the snapshot at {snapshot} does not contain commit {commit[:12]}; {fetch} again"
    return ""


# Not `git archive | tar -x`: a snapshot may leave out its largest blobs (images, saved models), and
# git archive stops at the first one it cannot read. Blob by blob, the absent ones are skipped and
# listed; the row says whether any of them is a file gradguard would have checked.

@dataclass(frozen=True)
class Blob:
    mode: str  # 100644, 100755 or 120000 (a symlink, its target as content)
    sha: str
    path: str


def commit_blobs(snapshot: Path, commit: str) -> list[Blob]:
    """Every file of the commit (submodules, which git archive leaves empty too, are skipped)."""
    listing = subprocess.run(["git", "-C", str(snapshot), "ls-tree", "-r", "-z", "--full-tree", commit],
                             capture_output=True)
    if listing.returncode != 0:
        raise StepFailed(f"git ls-tree failed: {last_line(listing.stderr.decode(errors='replace'))}")
    blobs = []
    for record in filter(None, listing.stdout.split(b"\0")):
        meta, _, path = record.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        if kind == "blob":
            blobs.append(Blob(mode, sha, os.fsdecode(path)))
    return blobs


def absent_paths(snapshot: Path, blobs: list[Blob]) -> list[str]:
    """The files whose content the snapshot lacks."""
    shas = "".join(blob.sha + "\n" for blob in blobs)
    answer = subprocess.run(["git", "-C", str(snapshot), "cat-file", "--batch-check"],
                            input=shas, capture_output=True, text=True)
    if answer.returncode != 0:
        raise StepFailed(f"git cat-file --batch-check failed: {last_line(answer.stderr)}")
    # One answer line per sha, in order: "SHA missing" or "SHA TYPE SIZE".
    return [blob.path for blob, line in zip(blobs, answer.stdout.splitlines()) if line.endswith(" missing")]


def export(snapshot: Path, repo: Repository, blobs: list[Blob], work: Path) -> Path:
    """The pinned commit's files under `work`, exported once: a finished export is reused."""
    tree = work / repo.folder / repo.commit
    if tree.is_dir():
        log(f"{repo.name}: reusing the export in {tree}")
    else:
        log(f"{repo.name}: exporting {repo.commit[:10]} into {tree}")
        partial = tree.with_name(repo.commit + ".part")  # renamed when complete: an interrupted export is not reused
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        write_blobs(snapshot, blobs, partial)
        partial.rename(tree)
    (tree / DEFAULTS_CONFIG).write_text("# bench/realworld.py: gradguard's default settings\n", encoding="utf-8")
    return tree


def write_blobs(snapshot: Path, blobs: list[Blob], into: Path) -> None:
    """Each blob's content from one `git cat-file --batch`, asked one at a time (no pipe can fill up)."""
    with subprocess.Popen(["git", "-C", str(snapshot), "cat-file", "--batch"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as batch:
        for blob in blobs:
            batch.stdin.write(blob.sha.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().split()  # SHA TYPE SIZE, or SHA missing
            if len(header) == 2 and header[1] == b"missing":
                continue
            if len(header) != 3:
                raise StepFailed(f"git cat-file --batch stopped answering at {blob.path}")
            content = batch.stdout.read(int(header[2]))
            batch.stdout.read(1)  # the newline after each object
            write_blob(into, blob, content)
        batch.stdin.close()


def write_blob(into: Path, blob: Blob, content: bytes) -> None:
    parts = PurePosixPath(blob.path).parts
    if not parts or ".." in parts or parts[0] == "/":  # git refuses such trees; a snapshot might not
        raise StepFailed(f"the tree has a path outside itself: {blob.path!r}")
    target = into.joinpath(*parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    if blob.mode == "120000":
        os.symlink(os.fsdecode(content), target)
    else:
        target.write_bytes(content)
        if blob.mode == "100755":
            target.chmod(0o755)


def count_files(gradguard: Gradguard, tree: Path) -> tuple[int, str]:
    """How many files `check` walks, by gradguard's own walk when it can be run, else by suffix."""
    walked = subprocess.run([gradguard.python, "-c", WALK_SNIPPET, ".", DEFAULTS_CONFIG],
                            cwd=tree, capture_output=True, text=True)
    if walked.returncode == 0 and walked.stdout.strip().isdigit():
        return int(walked.stdout), WALKED_BY_GRADGUARD
    log(f"gradguard's file walk could not be run ({last_line(walked.stderr)}); counting *.py and *.ipynb")
    return count_by_suffix(tree), WALKED_HERE


def count_by_suffix(tree: Path) -> int:
    count = 0
    for _, subfolders, files in os.walk(tree):
        subfolders[:] = [name for name in subfolders if name not in USUAL_EXCLUDES]
        count += sum(name.endswith((".py", ".ipynb")) for name in files)
    return count


def check(gradguard: Gradguard, tree: Path, timeout: float) -> tuple[list[dict], float, str]:
    """Run `gradguard check` on the export: its findings, wall time and what went wrong ('' if nothing).

    StepFailed when there is no report to read at all."""
    # Run inside the export on ".", so that the paths in the findings are relative to the
    # repository's root and compare across runs whatever the work folder was.
    command = [gradguard.executable, "check", "--no-cache", "--format", "json", "--exit-zero", "-q",
               "--config", DEFAULTS_CONFIG, "."]
    start = time.perf_counter()
    returncode, stdout, stderr = run_bounded(command, tree, timeout)
    seconds = time.perf_counter() - start
    try:
        findings = [{key: item.get(key) for key in FINDING_FIELDS} for item in json.loads(stdout)]
    except (json.JSONDecodeError, TypeError, KeyError):
        raise StepFailed(f"gradguard exit {returncode}, no JSON report: {last_line(stderr)}") from None
    # Exit 2 with a report: an internal error on some files, the others checked; their findings count.
    problem = f"gradguard exit {returncode}: {last_line(stderr)}" if returncode != 0 else ""
    return findings, seconds, problem


def run_bounded(command: list[str], cwd: Path, timeout: float) -> tuple[int, str, str]:
    """Run a command; past `timeout`, stop it with its worker processes (its own process group)."""
    environment = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=environment, start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise StepFailed(f"gradguard check took longer than {timeout:g} s (--timeout)") from None
    return process.returncode, stdout, stderr


@contextmanager
def work_folder(work: str | None) -> Iterator[Path]:
    """--work DIR (kept: exports are reused next time), else a temporary folder removed at the end."""
    if work:
        Path(work).mkdir(parents=True, exist_ok=True)
        yield Path(work).resolve()
        return
    with tempfile.TemporaryDirectory(prefix="gradguard-realworld-") as folder:
        yield Path(folder)


# ---------------------------------------------------------------------------------------------
# A run: measured now, or read back from --json


def measure(repositories: list[Repository], args: argparse.Namespace) -> dict:
    gradguard = find_gradguard(args.python)
    log(f"{gradguard.version} at {gradguard.commit} ({gradguard.executable})")
    started = datetime.now(timezone.utc)
    outcomes = []
    with work_folder(args.work) as work:
        for number, repo in enumerate(repositories, 1):
            log(f"[{number}/{len(repositories)}] {repo.name} {repo.commit[:10]}")
            outcome = measure_one(repo, gradguard, Path(args.mirror), work, args.timeout)
            if outcome.status == "ok":
                syntax_errors = sum(finding["code"] == "E999" for finding in outcome.findings)
                log(f"{repo.name}: {len(outcome.findings) - syntax_errors} findings and {syntax_errors} E999 "
                    f"in {outcome.seconds:.1f} s")
            outcomes.append(outcome)
    return {
        "format": RESULT_FORMAT,
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "gradguard": {"version": gradguard.version, "commit": gradguard.commit, "python": gradguard.python},
        "cores": os.cpu_count(),
        "hash_seed": HASH_SEED,
        "repositories": outcomes,
    }


def read_run(path: str) -> dict:
    """A run saved with --json, checked enough that the report and comparison can trust it."""
    try:
        run = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise BadInput(f"{path}: cannot read: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadInput(f"{path}: not valid JSON: {error}") from None
    if not isinstance(run, dict) or run.get("format") != RESULT_FORMAT:
        raise BadInput(f"{path}: not a result of bench/realworld.py --json (format {RESULT_FORMAT})")
    try:
        run["repositories"] = [Outcome(**entry) for entry in run["repositories"]]
        for outcome in run["repositories"]:
            outcome.findings = [{key: finding.get(key) for key in FINDING_FIELDS} for finding in outcome.findings]
        if not all(isinstance(run["gradguard"][key], str) for key in ("version", "commit", "python")):
            raise TypeError("gradguard's version, commit and python must be strings")
        if not isinstance(run["date"], str):
            raise TypeError("date must be a string")
    except (KeyError, TypeError) as error:
        raise BadInput(f"{path}: not a result of bench/realworld.py --json ({type(error).__name__}: {error})") \
            from None
    return run


def write_run(run: dict, path: str) -> None:
    data = {**run, "repositories": [asdict(outcome) for outcome in run["repositories"]]}
    try:
        Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        raise BadInput(f"--json {path}: cannot write: {error.strerror or error}") from None
    log(f"findings saved to {path}")


# ---------------------------------------------------------------------------------------------
# Report


def report(run: dict) -> str:
    outcomes = run["repositories"]
    gradguard = run["gradguard"]
    lines = [f"Run on {run['date']}: {gradguard['version']} at {gradguard['commit']}, {gradguard['python']}, "
             f"{run.get('cores', '?')} cores.", ""]
    lines += table(["repository", "commit", "files", "findings", "by code", "E999", "seconds", "status"],
                   [outcome_row(outcome) for outcome in outcomes] + [total_row(outcomes)],
                   right={2, 3, 5, 6})
    lines += ["", "findings: every finding except E999 (a file gradguard cannot parse, counted apart); "
              "seconds: wall time of the whole `gradguard check` process, start-up included."]
    for method in sorted({outcome.files_counted_by for outcome in outcomes if outcome.files_counted_by}):
        lines.append(f"files: counted by {method}.")
    return "\n".join(lines) + "\n"


def outcome_row(outcome: Outcome) -> list[str]:
    measured = outcome.seconds is not None  # gradguard gave a report (complete or not)
    codes = Counter(finding["code"] for finding in outcome.findings)
    syntax_errors = codes.pop("E999", 0)
    return [outcome.name, outcome.commit[:7],
            number(outcome.files) if outcome.files is not None else "—",
            number(codes.total()) if measured else "—",
            by_code(codes) if measured else "—",
            number(syntax_errors) if measured else "—",
            f"{outcome.seconds:.1f}" if outcome.seconds is not None else "—",
            status(outcome)]


def status(outcome: Outcome) -> str:
    text = outcome.status if outcome.status == "ok" else f"{outcome.status}: {outcome.problem}"
    return f"{text} ({absence(outcome.absent)})" if outcome.absent else text


def total_row(outcomes: list[Outcome]) -> list[str]:
    codes = Counter(finding["code"] for outcome in outcomes for finding in outcome.findings)
    syntax_errors = codes.pop("E999", 0)
    checked = [outcome for outcome in outcomes if outcome.status == "ok"]
    return ["**total**", "", number(sum(outcome.files or 0 for outcome in outcomes)), number(codes.total()),
            by_code(codes), number(syntax_errors), f"{sum(outcome.seconds or 0 for outcome in outcomes):.1f}",
            f"{len(checked)} of {len(outcomes)} checked"]


def by_code(codes: Counter) -> str:
    ordered = sorted(codes.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{code} {count}" for code, count in ordered) or "none"


def number(value: int) -> str:
    return f"{value:,}"


def table(header: list[str], rows: list[list[str]], right: Collection[int] = ()) -> list[str]:
    """A markdown table; cells are escaped so that a message with '|' stays in its cell."""
    rule = ["---:" if column in right else "---" for column in range(len(header))]
    return ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in [header, rule, *rows]]


# ---------------------------------------------------------------------------------------------
# Comparison with an earlier run


def compare(old: dict, new: dict) -> str:
    before = {outcome.name: outcome for outcome in old["repositories"]}
    after = {outcome.name: outcome for outcome in new["repositories"]}
    # Only repositories checked in both runs: a missing or failed one would look like findings lost.
    common = [name for name in after if name in before and before[name].status == after[name].status == "ok"]
    lines = [f"## Before: the run of {old['date']} (gradguard at {old['gradguard']['commit']}); "
             f"after: the run of {new['date']} (gradguard at {new['gradguard']['commit']})", ""]
    lines += table(["repository", "files", "findings", "change", "E999"],
                   [repository_change(before[name], after[name]) for name in common], right={1, 2, 3, 4})
    skipped = [f"{name} ({'not in the earlier run' if name not in before else 'not checked in both runs'})"
               for name in after if name not in common]
    if skipped:
        lines += ["", "Not compared: " + "; ".join(skipped) + "."]
    lines += ["", *code_changes(before, after, common), ""]
    lines += finding_changes(before, after, common)
    return "\n".join(lines) + "\n"


def repository_change(before: Outcome, after: Outcome) -> list[str]:
    old_codes, new_codes = Counter(f["code"] for f in before.findings), Counter(f["code"] for f in after.findings)
    old_errors, new_errors = old_codes.pop("E999", 0), new_codes.pop("E999", 0)
    name = after.name
    if before.commit != after.commit:  # a new pin: the differences are not all gradguard's
        name += f" (commit {before.commit[:7]} → {after.commit[:7]})"
    return [name, arrow(before.files or 0, after.files or 0), arrow(old_codes.total(), new_codes.total()),
            signed(new_codes.total() - old_codes.total()), arrow(old_errors, new_errors)]


def code_changes(before: dict, after: dict, names: list[str]) -> list[str]:
    old = Counter(f["code"] for name in names for f in before[name].findings)
    new = Counter(f["code"] for name in names for f in after[name].findings)
    rows = [[code, number(old[code]), number(new[code]), signed(new[code] - old[code])]
            for code in sorted(old.keys() | new.keys())]
    if not rows:
        return ["No findings in either run."]
    return table(["code", "before", "after", "change"], rows, right={1, 2, 3})


def finding_changes(before: dict, after: dict, names: list[str]) -> list[str]:
    """Every finding that appeared (+) or disappeared (-), as `repository path:line code message`."""
    appeared, disappeared = [], []
    for name in names:
        old, new = finding_keys(before[name].findings), finding_keys(after[name].findings)
        appeared += [(name, key) for key in sorted((new - old).elements())]
        disappeared += [(name, key) for key in sorted((old - new).elements())]
    lines = [f"### Appeared ({len(appeared)})", "", *shown("+", appeared), "",
             f"### Disappeared ({len(disappeared)})", "", *shown("-", disappeared)]
    return lines


def finding_keys(findings: Iterable[dict]) -> Counter:
    # A multiset: the same message twice on one line is two findings.
    return Counter((f["path"], f["cell"], f["line"], f["code"], f["message"]) for f in findings)


def shown(sign: str, findings: list[tuple[str, tuple]]) -> list[str]:
    lines = [f"{sign} {name} {path}:{'' if cell is None else f'cell {cell}:'}{line} {code} {message}"
             for name, (path, cell, line, code, message) in findings]
    return ["```", *lines, "```"] if lines else ["none"]


def arrow(old: int, new: int) -> str:
    return number(new) if old == new else f"{number(old)} → {number(new)}"


def signed(change: int) -> str:
    return f"{change:+,}" if change else "0"


# ---------------------------------------------------------------------------------------------
# Command line


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", default=str(DEFAULT_LIST), metavar="FILE",
                        help="the repositories, pinned by commit (default: bench/realworld.toml)")
    parser.add_argument("--mirror", default=str(DEFAULT_MIRROR), metavar="DIR",
                        help="where the snapshots are, as DIR/OWNER+NAME/repo (default: ../.mirror)")
    parser.add_argument("--work", metavar="DIR",
                        help="export into DIR and keep the exports for the next run (default: a temporary folder)")
    parser.add_argument("--python", default=str(DEFAULT_PYTHON), metavar="PYTHON",
                        help="the interpreter whose gradguard is measured (default: .venv/bin/python)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="check only this repository (OWNER/NAME or NAME; repeat, or separate with commas)")
    parser.add_argument("--json", metavar="OUT", help="save every finding (path, line, code, message) to OUT")
    parser.add_argument("--compare", metavar="OLD.json", help="print before/after against a run saved with --json")
    parser.add_argument("--load", metavar="RUN.json",
                        help="report (and compare) a run saved with --json instead of running gradguard")
    parser.add_argument("--timeout", type=float, default=3600, metavar="SECONDS",
                        help="give up on one repository's check after this long (default: 3600)")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> int:
    old = read_run(args.compare) if args.compare else None  # read first: a bad file should not cost a run
    if args.load:
        new = read_run(args.load)
        chosen = selected([outcome.name for outcome in new["repositories"]], args.only)
        new["repositories"] = [outcome for outcome in new["repositories"] if outcome.name in chosen]
    else:
        repositories = read_list(Path(args.list))
        chosen = selected([repo.name for repo in repositories], args.only)
        new = measure([repo for repo in repositories if repo.name in chosen], args)
    sys.stdout.write(report(new))
    if old is not None:
        sys.stdout.write("\n" + compare(old, new))
    if args.json:  # after the report: a --json that cannot be written does not lose the table
        write_run(new, args.json)
    return 0 if all(outcome.status == "ok" for outcome in new["repositories"]) else 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except BadInput as error:
        print(f"realworld: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
