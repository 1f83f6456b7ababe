"""`gradguard check`'s result cache: a file whose bytes and settings did not change since the last
run is not analysed again (as ruff's `.ruff_cache`).

One JSON file per project root, `.gradguard_cache/results-<fingerprint>.json`. The fingerprint
covers gradguard's version, its own source files (an editable install changes without a new
version) and the Python version, so a cache never outlives the analyzer that wrote it. An entry
is keyed by the file's path in the project, and holds a hash of its bytes and of the settings it
was checked under, and its diagnostics.

A result that depends on other files (jedi followed a call into another module) is not stored:
the other module may change. The cache is plain data, read with `json` and checked field by field,
never `pickle`: a cache that came with a cloned repository cannot run code. Anything wrong with
it (unreadable, corrupt, not writable) makes it a miss, never an error.
"""
from __future__ import annotations

import json
import os
import sys
from functools import cache
from pathlib import Path

from .. import __version__
from ..diagnostics import Diagnostic, Edit, Fix, Related, Safety, Severity, Span
from .arguments import CACHE_DIR

_README = "Results of `gradguard check`, reused while files and settings are unchanged. Safe to delete.\n"


class ResultCache:
    """The cached results of the project under `root`; load once, save once at the end."""

    def __init__(self, root: Path) -> None:
        self.folder = Path(os.environ.get("GRADGUARD_CACHE_DIR") or root / CACHE_DIR)
        self.root = root
        self.path = self.folder / f"results-{analyzer_fingerprint()}.json"
        self._entries: dict[str, dict] | None = None
        self._changed = False

    @property
    def empty(self) -> bool:
        return not self._load()

    def lookup(self, path: Path, key: str) -> list[Diagnostic] | None:
        entry = self._load().get(self._name(path))
        if entry is None or entry.get("key") != key:
            return None
        try:
            return [_diagnostic(item) for item in entry["diagnostics"]]
        except (KeyError, TypeError, ValueError):
            return None  # written by hand or by a broken tool: analyse again

    def store(self, path: Path, key: str, diagnostics: list[Diagnostic]) -> None:
        self._load()[self._name(path)] = {"key": key, "diagnostics": [_data(d) for d in diagnostics]}
        self._changed = True

    def save(self) -> None:
        """Write the cache if anything changed (atomically; a failure only costs the next run time)."""
        if not self._changed:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _mark_as_cache(self.folder)
            for old in self.folder.glob("results-*.json"):
                if old != self.path:
                    old.unlink(missing_ok=True)  # written by another version of gradguard
            import tempfile  # here: a check with --no-cache saves nothing

            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".results-", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"files": self._entries}, out, separators=(",", ":"))
            os.replace(temporary, self.path)
        except OSError:
            pass
        self._changed = False

    def _load(self) -> dict[str, dict]:
        if self._entries is None:
            try:
                files = json.loads(self.path.read_text(encoding="utf-8"))["files"]
                self._entries = {k: v for k, v in files.items() if isinstance(v, dict)}
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                self._entries = {}
        return self._entries

    def _name(self, path: Path) -> str:
        absolute = Path(os.path.abspath(path))
        try:
            return absolute.relative_to(os.path.abspath(self.root)).as_posix()
        except ValueError:
            return absolute.as_posix()


@cache
def analyzer_fingerprint() -> str:
    import hashlib  # here: a check with --no-cache hashes nothing

    digest = hashlib.blake2b(f"{__version__} {sys.version}".encode(), digest_size=8)
    package = Path(__file__).resolve().parents[1]  # every layer of the analyzer, and its data
    for source in sorted([*package.rglob("*.py"), *package.rglob("*.json")]):
        digest.update(source.read_bytes())
    return digest.hexdigest()


def result_key(raw: bytes, settings: str) -> str:
    """What a cached result must match: the file's bytes and the settings it was checked under."""
    import hashlib

    return hashlib.blake2b(raw + b"\0" + settings.encode(), digest_size=16).hexdigest()


def _mark_as_cache(folder: Path) -> None:
    """A .gitignore that ignores the folder itself, and a CACHEDIR.TAG for backup tools."""
    if not (folder / ".gitignore").exists():
        (folder / ".gitignore").write_text("# Created by gradguard\n*\n", encoding="utf-8")
        (folder / "CACHEDIR.TAG").write_text(
            "Signature: 8a477f597d28d172789f06886806bc55\n# This is a gradguard cache folder.\n", encoding="utf-8")
        (folder / "README").write_text(_README, encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Diagnostics as JSON data, checked on the way back


def _data(d: Diagnostic) -> dict:
    return {
        "code": d.code, "severity": d.severity.value, "message": d.message, "span": _span_data(d.span),
        "related": [{"span": _span_data(r.span), "message": r.message, "path": r.path} for r in d.related],
        "fixes": [{"title": f.title, "safety": f.safety.value, "preferred": f.preferred,
                   "edits": [[_span_data(e.span), e.new_text] for e in f.edits]} for f in d.fixes],
    }


def _diagnostic(data: dict) -> Diagnostic:
    related = tuple(Related(_span(r["span"]), _text(r["message"]), _optional_text(r["path"]))
                    for r in data["related"])
    fixes = tuple(Fix(_text(f["title"]), Safety(f["safety"]), tuple(Edit(_span(s), _text(t)) for s, t in f["edits"]),
                      f["preferred"] is True) for f in data["fixes"])
    return Diagnostic(_text(data["code"]), Severity(data["severity"]), _text(data["message"]), _span(data["span"]),
                      related, fixes)


def _span_data(span: Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def _span(data) -> Span:
    if not (isinstance(data, list) and len(data) == 4 and all(type(n) is int and n >= 0 for n in data)):
        raise ValueError(f"not a span: {data!r}")
    return Span(*data)


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not text: {value!r}")
    return value


def _optional_text(value) -> str | None:
    return None if value is None else _text(value)
