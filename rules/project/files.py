"""Which files a run checks: PATH arguments expanded into Python files and notebooks, the way git
sees a project (its .gitignore files, the configured excludes, the usual folders of tools).

Each entry of a folder is excluded by the configuration of that folder (the nearest
`[tool.gradguard]`, config.Configs), so `gradguard check .` and `gradguard check sub` skip the
same files of sub/; the default excludes (.git, .venv, .ipynb_checkpoints, ...) are that
configuration's `exclude` unless it sets its own."""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config, Configs
from .globs import GitIgnore


@dataclass(eq=False, repr=False)
class Walk:
    config: Config | Configs  # one Config for every folder, or each folder's own (Configs)
    warn: Callable[[str], None]
    files: list[tuple[str, Path]] = field(default_factory=list)   # (display, path)
    seen: set[Path] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.configs = Configs.of(self.config)

    def add_argument(self, argument: str) -> bool:
        """Collect the files of one PATH argument; False when it does not exist."""
        path = Path(argument)
        if not path.exists() and not path.is_symlink():
            return False
        root = project_root(path, self.configs.for_path(path))
        if path.is_symlink() and resolve(path) is None:  # was an internal error: fuzzing/test_fix_safety
            self.warn(f"{argument}: symlink loop; skipped")
        elif path.is_symlink() and not _inside(path.resolve(), root):
            self.warn(f"{argument}: symlink to {path.resolve()} points outside the project; skipped")
        elif path.is_dir():
            self._walk(path, root, _gitignores_above(path, root))
        elif not self.configs.for_path(path).excluded(path, named=True):  # pre-commit names files
            self._add(argument, path)
        return True

    def _add(self, display: str, path: Path) -> None:
        real = path.resolve()
        if real not in self.seen:
            self.seen.add(real)
            self.files.append((display, path))

    def _walk(self, folder: Path, root: Path, gitignore: GitIgnore) -> None:
        real = folder.resolve()
        if real in self.seen:
            return  # a symlink loop, or a folder given twice
        self.seen.add(real)
        gitignore = gitignore.extended(folder)
        config = self.configs.for_folder(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            self.warn(f"{folder}: cannot list folder: {error.strerror or error}")
            return
        for entry in entries:
            self._visit(Path(folder, entry.name), entry, root, gitignore, config)

    def _visit(self, path: Path, entry: os.DirEntry, root: Path, gitignore: GitIgnore, config: Config) -> None:
        try:
            is_dir = entry.is_dir()
        except OSError:  # ELOOP: a symlink loop made the whole run an internal error before
            if not self._excluded(path, False, gitignore, config):
                self.warn(f"{path}: symlink loop; skipped")
            return
        if not is_dir and path.suffix not in (".py", ".ipynb"):
            return  # nothing to check: no need to match it against any glob
        if self._excluded(path, is_dir, gitignore, config):
            return
        if entry.is_symlink() and not _inside(path.resolve(), root):
            self.warn(f"{path}: symlink to {path.resolve()} points outside the project; skipped")
        elif is_dir:
            self._walk(path, root, gitignore)
        elif entry.is_file():
            self._add(str(path), path)

    @staticmethod
    def _excluded(path: Path, is_dir: bool, gitignore: GitIgnore, config: Config) -> bool:
        # The folders above were excluded or not when the walk came through them: the entry alone.
        return config.excluded_entry(path, is_dir) or gitignore.ignored(path, is_dir)


def resolve(path: Path) -> Path | None:
    """Where a symlink leads, or None for a loop (RuntimeError before Python 3.13, then OSError)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def project_root(path: Path, config: Config) -> Path:
    """The folder symlinks must stay in: the config's, else the nearest with .git, else the path's."""
    absolute = Path(os.path.abspath(path))
    if config.root is not None and _inside(absolute, config.root):
        return config.root
    start = absolute if absolute.is_dir() and not absolute.is_symlink() else absolute.parent
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def import_root(path: Path) -> Path:
    """The folder jedi resolves a file's imports from (its jedi Project): the nearest folder with
    .git above the file, else the folder holding its top package (the first folder upwards
    without `__init__.py`). The file's location alone decides, never a configuration file's."""
    folder = Path(os.path.abspath(path)).parent
    for above in (folder, *folder.parents):
        if (above / ".git").exists():
            return above
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(folder))
    except ValueError:
        try:
            path.resolve().relative_to(folder.resolve())
        except ValueError:
            return False
    return True


def _gitignores_above(folder: Path, root: Path) -> GitIgnore:
    """The .gitignore files between the project root and `folder` (exclusive) apply inside it."""
    gitignore = GitIgnore()
    absolute = Path(os.path.abspath(folder))
    try:
        parts = absolute.relative_to(os.path.abspath(root)).parts
    except ValueError:
        return gitignore
    current = Path(os.path.abspath(root))
    for part in parts:
        gitignore = gitignore.extended(current)
        current = current / part
    return gitignore
