"""Runs generated programs with TensorFlow, labels each by what TensorFlow did, runs gradguard
on it, and compares every claim gradguard makes with the label.

TensorFlow runs in worker processes (imported once each, many programs per process, restarted
every `RESTART_EVERY` programs and after a program that hangs), so the parent never imports it.
Labels depend only on the program and the TensorFlow side (versions, the harness), never on
gradguard, so they are cached on disk: after a change of the analysis only gradguard runs again.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .claims import Claim, claims_of
from .generator import DIMENSIONS, Program, generate

TESTS = Path(__file__).resolve().parent.parent
RESTART_EVERY = 400
PROGRAM_TIMEOUT = 120.0  # seconds; a program that takes longer is labelled "invalid: timeout"
# Exceptions that are the consequence of a missing gradient, not of a broken program.
GRADIENT_ERRORS = ("No gradients provided", "NoneType", "non-persistent", "No gradient defined",
                   "can only be used to compute one set of gradients")
# ... and those TensorFlow raises before any gradient call returns: a custom gradient reading a
# variable whose `grad` takes no `variables` (GG314, raised by the forward pass in the tape), a
# symbolic Keras tensor (`model.inputs`) watched or differentiated (GG312).
EARLY_GRADIENT_ERRORS = ("grad_fn must accept keyword argument 'variables'", "of type 'KerasTensor', not tf.Tensor")


@dataclass(frozen=True)
class Label:
    """What TensorFlow did (from the cached facts of its run): `ok` (every gradient present, no exception), `broken` (some gradient
    None, or an exception caused by one), or `invalid` (the program failed for another reason:
    the generator's fault, reported so that it can be fixed, never judged)."""

    status: str
    groups: tuple[str, ...] = ()      # per source group: "live", "none" or "partial" ("" unknown)
    returned_list: bool | None = None  # the first gradient call returned a list (not one tensor)
    error: str = ""
    # How it broke: "none" (a gradient came back None) or the exception's class; "" when it did not.
    reason: str = ""
    # `unconnected_gradients=ZERO` asked in the first gradient call and TensorFlow filled zeros for
    # a source the target is not connected to (the same call with the default gives None there).
    zeros: bool = False
    # The program's layers declare regularizers: "used" (doubling the penalties changed the
    # gradients it asked for), "left_out" (they did not: the loss leaves them out) or "unknown"
    # (the run raised); "none" when no layer declares one.
    regularization: str = "none"

    @property
    def gradient_broken(self) -> bool:
        """Broken by a gradient that is None (or an exception caused by one), not only by the
        regularization left out."""
        return self.status == "broken" and self.reason != "regularization"


@dataclass
class Verdict:
    program: Program
    label: Label
    claims: list[Claim]
    false_claims: list[Claim] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.label.status != "invalid"

    @property
    def found(self) -> bool:
        """The break has a claim that stands: a gradient claim for a None gradient (the first thing
        to fix, even where the penalties are left out too), else a regularization claim for the
        penalties left out of the loss."""
        if self.label.status != "broken":
            return False
        wanted = "gradient" if self.label.gradient_broken else "regularization"
        return any(c.kind == wanted and c not in self.false_claims for c in self.claims)

    @property
    def missed(self) -> bool:
        return self.label.status == "broken" and not self.found

    def describe(self) -> str:
        what = "false claim" if self.false_claims else "missed" if self.missed else "agrees"
        claims = "; ".join(c.describe() for c in (self.false_claims or self.claims)) or "silent"
        return f"{self.program.name} [{what}] TF={self.label.status} {self.label.groups} | {claims}"


def judge(program: Program, label: Label, claims: list[Claim]) -> Verdict:
    verdict = Verdict(program, label, claims)
    if not verdict.valid:
        return verdict
    for claim in claims:
        if claim.kind == "gradient":
            if not label.gradient_broken:
                verdict.false_claims.append(claim)
            elif claim.group is not None and claim.group < len(label.groups) and label.groups[claim.group] == "live":
                verdict.false_claims.append(claim)
        elif claim.kind == "guard" and label.returned_list is False:
            verdict.false_claims.append(claim)
        elif claim.kind == "regularization" and label.regularization in ("used", "none"):
            verdict.false_claims.append(claim)
    return verdict


# --------------------------------------------------------------------------------------------
# The TensorFlow side (worker processes)


def facts_of(outcome, groups: tuple[str, ...], unconnected: list | None = None) -> dict:
    """What one run of `tf_harness.run_program` did, as plain data (cached): per gradient call which
    gradients are present, how many variables each source group holds, what the first call
    returned, and the exception; for the calls that asked for zeros where nothing is connected
    (`unconnected_gradients=ZERO`), where the default would have given None (`unconnected`)."""
    import tensorflow as tf

    sizes: list[int] = []
    if outcome.namespace is not None:
        try:
            sizes = [len(tf.nest.flatten(eval(g, outcome.namespace))) for g in groups]  # noqa: S307 - our own program
        except Exception:  # noqa: BLE001 - a group that does not evaluate: per-group labels unknown
            sizes = []
    error = outcome.error
    facts = {"present": [[g is not None for g in call] for call in outcome.gradients], "sizes": sizes,
             "returned_list": outcome.returned_list[0] if outcome.returned_list else None,
             "error": "" if error is None else f"{type(error).__name__}: {str(error)[:300]}"}
    if unconnected and any(n is not None for n in unconnected):
        facts["unconnected"] = unconnected
    return facts


def _zeros_noted(original, notes: list):
    """`GradientTape.gradient`, which for `unconnected_gradients=ZERO` asks TensorFlow for the
    default's answer (None for a source the target is not connected to), notes where it is None
    (`notes`: one list per outermost call, or None for a call that did not ask for zeros), and
    returns what ZERO returns: those Nones filled with `zeros_like` of their source."""
    import tensorflow as tf
    import tf_harness

    def gradient(tape, target, sources, output_gradients=None, unconnected_gradients=None):
        outermost = getattr(tf_harness._local, "depth", 0) <= 1  # the harness's recorder counts calls
        option = unconnected_gradients
        zero = option is not None and str(getattr(option, "value", option)).lower() == "zero"
        if not zero:
            if outermost:
                notes.append(None)
            if option is None:
                return original(tape, target, sources, output_gradients)
            return original(tape, target, sources, output_gradients, option)
        result = original(tape, target, sources, output_gradients, tf.UnconnectedGradients.NONE)
        if outermost:
            notes.append([g is None for g in tf.nest.flatten(result)])
        return tf.nest.map_structure(lambda g, s: tf.zeros_like(s) if g is None else g, result, sources)

    gradient.__wrapped__ = original
    return gradient


def label_of(facts: dict) -> Label:
    calls, sizes, error = facts["present"], facts["sizes"], facts["error"]
    groups: list[str] = []
    if calls and sizes and sum(sizes) == len(calls[0]):
        at = 0
        for size in sizes:
            part = calls[0][at:at + size]
            at += size
            groups.append("none" if not any(part) else "live" if all(part) else "partial")
    if (sizes and 0 in sizes) or (calls and not calls[0]) or (calls and sizes and sum(sizes) != len(calls[0])):
        # A source holding no variables when it was asked for (a layer not built yet): not what
        # the program means to train, and no per-source label: not judged.
        status, error = "invalid", error or "a gradient source held no variables when it was asked for"
    elif any(not present for call in calls for present in call):
        status = "broken"
    elif error:
        status = "broken" if calls and any(s in error for s in GRADIENT_ERRORS) \
            or any(s in error for s in EARLY_GRADIENT_ERRORS) else "invalid"
    elif calls:
        status = "ok"
    else:
        status, error = "invalid", "no gradient call ran"
    reason = "" if status != "broken" else "none" if any(not p for call in calls for p in call) else error.split(":")[0]
    regularization = facts.get("regularization", "none")  # the programs without regularizers have no such fact
    if status == "ok" and regularization == "left_out":
        status, reason = "broken", "regularization"
    first = (facts.get("unconnected") or [None])[0]
    return Label(status, tuple(groups), facts["returned_list"], error, reason, zeros=bool(first and any(first)),
                 regularization=regularization)


def _worker(conn) -> None:
    sys.path.insert(0, str(TESTS))
    import tf_harness

    notes: list = []
    tape = tf_harness.tf.GradientTape
    tape.gradient = _zeros_noted(tape.__dict__["gradient"], notes)
    while True:
        job = conn.recv()
        if job is None:
            return
        key, name, source, groups = job
        notes.clear()
        outcome = tf_harness.run_program(source, f"{name}.py")
        facts = facts_of(outcome, tuple(groups), list(notes))
        outcome.namespace = None
        if "regularizer=" in source:
            facts["regularization"] = (_regularization_fact(tf_harness, source, name, outcome)
                                       if outcome.gradients and outcome.error is None else "unknown")
        conn.send((key, facts))


# The penalties a generated program's layers may declare (keras.regularizers; "l2" is an L2).
_PENALTIES = ("L1", "L2", "L1L2")


def _regularization_fact(tf_harness, source: str, name: str, first) -> str:
    """Whether the gradients the program asks for include its layers' regularization: run again
    (same seeds) with every penalty given a term of gradient one half everywhere (doubling it
    would change nothing where its gradient is zero: an L2 of a bias that starts at zero).
    Unchanged gradients: the loss leaves the penalties out."""
    tf, regularizers = tf_harness.tf, tf_harness.keras.regularizers
    saved = {cls: cls.__call__ for cls in (getattr(regularizers, n) for n in _PENALTIES)}
    for cls, call in saved.items():
        cls.__call__ = lambda self, x, _call=call: _call(self, x) + 0.5 * tf.reduce_sum(tf.cast(x, tf.float32))
    try:
        again = tf_harness.run_program(source, f"{name}.py")
    finally:
        for cls, call in saved.items():
            cls.__call__ = call
    again.namespace = None
    return "used" if tf_harness.differs(first, again) else "left_out"


def _failed(why: str) -> dict:
    return {"present": [], "sizes": [], "returned_list": None, "error": f"WorkerError: {why}"}


class Pool:
    """TensorFlow workers that can be killed when a program hangs."""

    def __init__(self, jobs: int) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.slots = [self._start() for _ in range(jobs)]

    def _start(self):
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child,), daemon=True)
        process.start()
        return {"process": process, "conn": parent, "job": None, "since": 0.0, "done": 0}

    def map(self, jobs: list[tuple], progress=None, on_result=None) -> dict[str, dict]:
        """Each job's facts by key; `on_result(key, facts)` as each arrives (the cache writes it then)."""
        pending = list(reversed(jobs))
        results: dict[str, dict] = {}
        while pending or any(slot["job"] for slot in self.slots):
            for index, slot in enumerate(self.slots):
                if slot["job"] is None and pending:
                    if slot["done"] >= RESTART_EVERY:
                        self._stop(slot)
                        slot = self.slots[index] = self._start()
                    slot["job"] = pending.pop()
                    slot["since"] = time.monotonic()
                    slot["conn"].send(slot["job"])
            for index, slot in enumerate(self.slots):
                if slot["job"] is None:
                    continue
                if slot["conn"].poll(0.01):
                    try:
                        key, label = slot["conn"].recv()
                    except EOFError:  # the worker died (a crash in TensorFlow): that program is invalid
                        key, label = slot["job"][0], _failed("the TensorFlow worker died")
                        self.slots[index] = self._start()
                    else:
                        slot["done"] += 1
                        slot["job"] = None
                    results[key] = label
                    if on_result:
                        on_result(key, label)
                    self.slots[index]["job"] = None
                    if progress:
                        progress(len(results), len(jobs))
                elif time.monotonic() - slot["since"] > PROGRAM_TIMEOUT:
                    results[slot["job"][0]] = _failed("timeout")
                    if on_result:
                        on_result(slot["job"][0], results[slot["job"][0]])
                    self._stop(slot, kill=True)
                    self.slots[index] = self._start()
        return results

    def _stop(self, slot, kill: bool = False) -> None:
        if kill:
            slot["process"].kill()
        else:
            try:
                slot["conn"].send(None)
            except OSError:
                pass
        slot["process"].join(timeout=10)
        if slot["process"].is_alive():
            slot["process"].kill()

    def close(self) -> None:
        for slot in self.slots:
            self._stop(slot)


# --------------------------------------------------------------------------------------------
# Labels, cached


def _tensorflow_side_key() -> str:
    """What the labels depend on besides the program: the versions and the harness."""
    from importlib import metadata

    parts = []
    for dist in ("tensorflow-cpu", "tensorflow", "keras", "tensorflow-probability", "numpy"):
        try:
            parts.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            pass
    parts.append(hashlib.sha256((TESTS / "tf_harness.py").read_bytes()).hexdigest()[:16])
    return "|".join(parts)


def _key(side: str, source: str) -> str:
    return hashlib.sha256((side + "\n" + source).encode()).hexdigest()


class LabelCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.side = _tensorflow_side_key()
        self.labels: dict[str, dict] = {}
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by an interrupted run
                self.labels[entry["key"]] = entry["label"]

    def key(self, source: str) -> str:
        return _key(self.side, source)

    def add(self, new: dict[str, dict]) -> None:
        self.labels.update(new)
        if self.path is not None and new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a") as f:
                for key, label in new.items():
                    f.write(json.dumps({"key": key, "label": label}) + "\n")


def label_programs(programs: list[Program], cache: LabelCache, jobs: int = 2, progress=None) -> list[Label]:
    keys = [cache.key(p.source) for p in programs]
    missing = {}
    for key, program in zip(keys, programs):
        if key not in cache.labels and key not in missing:
            missing[key] = (key, program.name, program.source, list(program.groups))
    if missing:
        def keep(key: str, facts: dict) -> None:
            # A worker that died or a program that timed out says something of this machine at
            # that moment, not of the program: used by this run, not cached for the next.
            if not facts["error"].startswith("WorkerError"):
                cache.add({key: facts})

        pool = Pool(min(jobs, len(missing)))
        try:
            cache.labels.update(pool.map(list(missing.values()), progress, on_result=keep))
        finally:
            pool.close()
    return [label_of(cache.labels[k]) for k in keys]


# --------------------------------------------------------------------------------------------
# gradguard's side and the comparison


def gradguard_claims(program: Program) -> list[Claim]:
    from gradguard.rules import analyze

    return claims_of(analyze(program.source, f"{program.name}.py"), program.group_spans)


def run(seed: int, count: int, *, jobs: int = 2, cache: LabelCache | None = None, progress=None,
        start: int = 0, where: dict[str, str | frozenset[str]] | None = None) -> list[Verdict]:
    """Programs `start`..`start + count - 1` of `seed` (only those whose dimensions have the values
    `where` gives, a value or a set of them, if it is given), labelled and judged."""
    programs = [generate(seed, i) for i in range(start, start + count)]
    if where:
        wanted = {d: v if isinstance(v, frozenset) else frozenset({v}) for d, v in where.items()}
        programs = [p for p in programs if all(p.dims.get(d) in v for d, v in wanted.items())]
    labels = label_programs(programs, cache or LabelCache(None), jobs, progress)
    return [judge(p, label, gradguard_claims(p)) for p, label in zip(programs, labels)]


# --------------------------------------------------------------------------------------------
# The table


def table(verdicts: list[Verdict]) -> str:
    """Per dimension value and per rule: false claims, found breaks, missed breaks (markdown)."""
    valid = [v for v in verdicts if v.valid]
    out = []
    ok = sum(v.label.status == "ok" for v in valid)
    broken = sum(v.label.status == "broken" for v in valid)
    false = sum(bool(v.false_claims) for v in valid)
    found = sum(v.found for v in valid)
    out.append(f"{len(verdicts)} programs: {len(valid)} valid ({ok} ok, {broken} broken by TensorFlow's run), "
               f"{len(verdicts) - len(valid)} invalid (failed for another reason, not judged)")
    out.append(f"false claims: {false} programs ({sum(len(v.false_claims) for v in valid)} claims); "
               f"breaks found: {found} of {broken} ({_pct(found, broken)})")
    out.append("")
    out.append("| dimension | value | programs | ok | broken | false claims | found | missed | recall |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for dim in DIMENSIONS:
        rows = defaultdict(list)
        for v in valid:
            rows[v.program.dims[dim]].append(v)
        for value in list(DIMENSIONS[dim]) + sorted(set(rows) - set(DIMENSIONS[dim])):  # "n/a" last
            vs = rows.get(value, [])
            if not vs:
                continue
            b = sum(v.label.status == "broken" for v in vs)
            f = sum(v.found for v in vs)
            out.append(f"| {dim} | {value} | {len(vs)} | {sum(v.label.status == 'ok' for v in vs)} | {b} | "
                       f"{sum(bool(v.false_claims) for v in vs)} | {f} | {b - f} | {_pct(f, b)} |")
    zero = [v for v in valid if v.program.dims.get("asked") == "zero"]
    if zero:
        filled = [v for v in zero if v.label.zeros]
        out.append("")
        out.append(f"unconnected_gradients=ZERO: {len(zero)} valid programs; in {len(filled)} of them TensorFlow "
                   f"filled zeros for a source the loss is not connected to (the default gives None there: a "
                   f"silent bug, but no gradient is None, so a claim that one is would be false); gradguard made "
                   f"a gradient claim in {sum(any(c.kind == 'gradient' for c in v.claims) for v in filled)} of them")
    out.append("")
    out.append("| rule | claims | false |")
    out.append("| --- | --- | --- |")
    made = Counter(c.code for v in valid for c in v.claims)
    wrong = Counter(c.code for v in valid for c in v.false_claims)
    for code in sorted(made):
        out.append(f"| {code} | {made[code]} | {wrong[code]} |")
    invalid = Counter(v.label.error.split(":")[0] + ": " + v.label.error.split(":", 1)[-1][:60]
                      for v in verdicts if not v.valid)
    if invalid:
        out.append("")
        out.append("invalid programs, by error: " + "; ".join(f"{n}x {e}" for e, n in invalid.most_common(8)))
    return "\n".join(out)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "-"
