"""Globs with gitignore semantics: `exclude` and `per-file-ignores` in the configuration, and the
`.gitignore` files a walk meets, follow one set of rules: git's, as pathspec's GitIgnoreSpec
implements them (a name without a slash matches at any depth, a slash anchors to the folder of the
file, a trailing slash means folders only, `**` crosses folders, `!` re-includes, the last matching
line of a file wins and a deeper .gitignore wins over the ones above it).

Paths are posix and relative to the folder the globs belong to; a folder is matched as `path/`.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from ..source.text import line_texts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a check need not load it)
if TYPE_CHECKING:  # imported where globs are compiled: a walk without .gitignore or configured globs never needs it
    import pathspec


@dataclass(unsafe_hash=True)
class _Spec:
    """One file's globs: pathspec's GitIgnoreSpec for files, its patterns one by one for folders.

    A file is asked with its whole path, so GitIgnoreSpec applies git's rule that nothing inside
    an excluded folder comes back with `!`. A folder the walk meets was not excluded above, so the
    last pattern that matches it decides, as git does when it walks. Two departures of pathspec's
    from what git's walk does are avoided that way: `*` then `!*/` keeps every folder (pathspec
    lets the `*` win for `d/`), and `logs/**` is what is inside logs/, not logs/ itself (git walks
    into logs/, so a later `!logs/keep.py` re-includes it), hence those lines are not asked about
    folders. tests/test_file_walk.py compares the walk with `git ls-files`.
    """

    files: pathspec.GitIgnoreSpec
    folders: tuple  # the patterns that can decide for a folder, in file order

    def decides(self, rel_path: str, is_dir: bool) -> bool | None:
        """True: excluded, False: re-included by a `!` line, None: no line is about it."""
        if not is_dir:
            return self.files.check_file(rel_path).include
        folder = rel_path + "/"
        for pattern in reversed(self.folders):
            if pattern.match_file(folder):
                return pattern.include
        return None

    @property
    def empty(self) -> bool:
        return not any(pattern.include is not None for pattern in self.files.patterns)


def _git_line(line: str) -> str:
    # pathspec reads `foo/**/` as `foo/` (everything in foo); in git it is the folders below foo,
    # which `foo/**/*/` says to pathspec too.
    stripped = line.rstrip(" ")
    return stripped[:-1] + "*/" if stripped.endswith("/**/") else line


def _valid(line: str) -> bool:
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=4096)  # the same globs are matched against every file of a walk
def _spec(lines: tuple[str, ...]) -> _Spec:
    import pathspec

    lines = tuple(_git_line(line) for line in lines)
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # a line git ignores as invalid (a lone backslash): pathspec raises
        spec = pathspec.GitIgnoreSpec.from_lines([line for line in lines if _valid(line)])
    folders = tuple(pattern for pattern in spec.patterns
                    if pattern.include is not None and not str(pattern.pattern).rstrip(" ").endswith("/**"))
    return _Spec(spec, folders)


@dataclass(unsafe_hash=True)
class Globs:
    """A list of globs read as the lines of one .gitignore file."""

    spec: _Spec

    def matches(self, rel_path: str, is_dir: bool = False) -> bool:
        """Does the last glob that matches this exact path exclude it?"""
        return bool(rel_path) and self.spec.decides(rel_path, is_dir) is True

    def matches_path(self, rel_path: str, is_dir: bool = False) -> bool:
        """Does it match the path or one of its parent folders (which holds everything inside)?

        As in git, a file inside an excluded folder cannot be re-included by a later `!` line.
        """
        parts = rel_path.split("/")
        for depth in range(1, len(parts) + 1):
            last = depth == len(parts)
            if self.matches("/".join(parts[:depth]), is_dir if last else True):
                return True
        return False


@functools.lru_cache(maxsize=1024)
def exclude_spec(globs: tuple[str, ...]) -> Globs:
    """The compiled form of a configuration's glob list (compiled once per list)."""
    return Globs(_spec(tuple(globs)))


def glob_matches(glob: str, rel_path: str, is_dir: bool = False) -> bool:
    """Does one gitignore-style glob match this exact relative posix path?"""
    return exclude_spec((glob,)).matches(rel_path, is_dir)


def glob_matches_path(glob: str, rel_path: str, is_dir: bool = False) -> bool:
    """Does the glob match the path or one of its parent folders (which holds everything inside)?"""
    return exclude_spec((glob,)).matches_path(rel_path, is_dir)


@dataclass(unsafe_hash=True)
class GitIgnore:
    """The .gitignore files met while walking down from the project root: (folder, its globs),
    outermost first."""

    files: tuple[tuple[str, _Spec], ...] = ()

    def extended(self, folder) -> "GitIgnore":
        file = os.path.join(folder, ".gitignore")
        try:
            with open(file, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:  # none here (the usual case), or unreadable
            return self
        spec = _spec(tuple(line_texts(text)))
        if spec.empty:  # only comments and blank lines
            return self
        return GitIgnore((*self.files, (os.path.abspath(folder), spec)))

    def ignored(self, path, is_dir: bool) -> bool:
        # The deepest .gitignore with a line about the path decides; in it, the last such line.
        absolute = os.path.abspath(path)
        for base, spec in reversed(self.files):
            prefix = base if base.endswith(os.sep) else base + os.sep
            if not absolute.startswith(prefix):
                continue
            rel = absolute[len(prefix):].replace(os.sep, "/")
            include = spec.decides(rel, is_dir)
            if include is not None:
                return include
        return False
