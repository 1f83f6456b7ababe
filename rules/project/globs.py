"""Globs with gitignore semantics: `exclude` and `per-file-ignores` in the configuration, and the
`.gitignore` files a walk meets, follow one set of rules (implemented with `re`)."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..source.text import line_texts


@dataclass(frozen=True)
class IgnorePattern:
    regex: re.Pattern
    negated: bool
    dir_only: bool


@functools.lru_cache(maxsize=4096)  # the same globs are matched against every file of a walk
def parse_gitignore_line(line: str) -> IgnorePattern | None:
    """One line of a .gitignore, or None for blanks and comments."""
    line = line.rstrip("\n").rstrip("\r")
    if not line.endswith("\\ "):
        line = line.rstrip(" ")
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    return IgnorePattern(_glob_regex(line), negated, dir_only)


def _glob_regex(pattern: str) -> re.Pattern:
    # A slash at the start or in the middle anchors the pattern to its folder; otherwise it
    # matches a name at any depth.
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    body = _translate(pattern)
    return re.compile(("^" if anchored else r"^(?:.*/)?") + body + "$", re.DOTALL)


def _translate(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out.append(r"(?:.*/)?")  # zero or more folders
            i += 3
        elif pattern.startswith("**", i) and (i == 0 or pattern[i - 1] == "/") and i + 2 == len(pattern):
            out.append(r".*")  # everything inside
            i += 2
        else:
            piece, i = _translate_char(pattern, i)
            out.append(piece)
    return "".join(out)


def _translate_char(pattern: str, i: int) -> tuple[str, int]:
    char = pattern[i]
    if char == "*":
        return r"[^/]*", i + 1
    if char == "?":
        return r"[^/]", i + 1
    if char == "\\" and i + 1 < len(pattern):
        return re.escape(pattern[i + 1]), i + 2
    if char == "[":
        end = pattern.find("]", i + 2)
        if end != -1:
            inner = pattern[i + 1:end]
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            return "[" + inner.replace("\\", "\\\\") + "]", end + 1
    return re.escape(char), i + 1


def glob_matches(glob: str, rel_path: str, is_dir: bool = False) -> bool:
    """Does one gitignore-style glob match this exact relative posix path?"""
    pattern = parse_gitignore_line(glob)
    if pattern is None or (pattern.dir_only and not is_dir):
        return False
    return bool(pattern.regex.match(rel_path))


def glob_matches_path(glob: str, rel_path: str, is_dir: bool = False) -> bool:
    """Does the glob match the path or one of its parent folders (which holds everything inside)?"""
    parts = rel_path.split("/")
    for depth in range(1, len(parts) + 1):
        last = depth == len(parts)
        if glob_matches(glob, "/".join(parts[:depth]), is_dir=is_dir if last else True):
            return True
    return False


@dataclass
class GitIgnore:
    """The patterns of the .gitignore files met while walking down from the project root."""

    rules: list[tuple[Path, IgnorePattern]] = field(default_factory=list)

    def extended(self, folder: Path) -> "GitIgnore":
        file = folder / ".gitignore"
        if not file.is_file():
            return self
        try:
            lines = line_texts(file.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return self
        base = Path(os.path.abspath(folder))
        added = [(base, p) for p in map(parse_gitignore_line, lines) if p is not None]
        return GitIgnore(self.rules + added)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        # The last matching pattern wins, so deeper .gitignore files (added later) take priority.
        verdict = False
        path = Path(os.path.abspath(path))
        for base, pattern in self.rules:
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if (is_dir or not pattern.dir_only) and pattern.regex.match(rel):
                verdict = not pattern.negated
        return verdict
