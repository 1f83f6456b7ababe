"""Project configuration: which rules run where, read from `[tool.gradguard]` in pyproject.toml.

    [tool.gradguard]
    select = ["GG1", "GG3"]          # code prefixes, like ruff: "GG1" selects GG101..GG199
    ignore = ["GG303"]               # wins over select
    exclude = ["generated/"]         # gitignore-style globs, relative to this file's folder
    extend-exclude = ["legacy/**"]
    jedi = true                      # follow calls into other modules (jedi); false: one file at a time
    jedi-time-budget = 1.0           # seconds of jedi per file; past it, what one file shows stands
    model-names = ["brain"]          # also guess these names to be Keras models (docs/name-conventions.md)
    next-state-names = ["obs_after"] # also guess a model called on these to compute a TD target
    guess-from-names = true          # false: never guess what a thing is from its name
    [tool.gradguard.per-file-ignores]
    "tests/*.py" = ["GG2"]
    [tool.gradguard.severity]
    GG202 = "info"

Globs follow gitignore semantics (project/globs.py), the same rules as the `.gitignore` files of a walk.
"""
from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from ..catalogue import registry
from ..diagnostics import Severity
from ..model.conventions import DEFAULT as DEFAULT_CONVENTIONS
from ..model.conventions import NameConventions
from .globs import glob_matches_path

DEFAULT_EXCLUDES = (
    ".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", ".tox", ".mypy_cache",
    "site-packages", ".gradguard_cache",
)
_KEYS = ("select", "ignore", "per-file-ignores", "severity", "exclude", "extend-exclude", "jedi", "jedi-time-budget",
         "model-names", "next-state-names", "guess-from-names")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CODE_PREFIX = re.compile(r"^[A-Z]+[0-9]*$")


class ConfigError(Exception):
    """A configuration problem; the message names the file (or option) and what is wrong."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("GG",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict, hash=False)
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    root: Path | None = None  # folder of the config file: globs are relative to it
    jedi: bool = True          # follow calls into other modules with jedi
    jedi_time_budget: float = 1.0  # seconds of jedi per file
    names: NameConventions = DEFAULT_CONVENTIONS  # what the analysis may guess from names

    def enabled(self, code: str, path: str | os.PathLike | None = None) -> bool:
        if not _matches_any(code, self.select) or _matches_any(code, self.ignore):
            return False
        if path is None or not self.per_file_ignores:
            return True
        rel = self.relative(path)
        return not any(
            _matches_any(code, codes) and glob_matches_path(glob, rel)
            for glob, codes in self.per_file_ignores
        )

    def severity_for(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)

    def excluded(self, path: str | os.PathLike, is_dir: bool = False) -> bool:
        """True when a config `exclude`/`extend-exclude` glob matches the path or a parent."""
        rel = self.relative(path)
        return any(glob_matches_path(glob, rel, is_dir) for glob in self.exclude + self.extend_exclude)

    def relative(self, path: str | os.PathLike) -> str:
        """`path` as a posix path relative to the config folder (as given when outside it)."""
        path = Path(path)
        if self.root is not None:
            try:
                return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root)).as_posix()
            except ValueError:
                pass
        return PurePosixPath(path.as_posix()).as_posix().removeprefix("./")

    def with_cli(self, select: str | None = None, ignore: str | None = None) -> "Config":
        """CLI options over the file: --select replaces the selection, --ignore adds to it."""
        config = self
        if select is not None:
            config = replace(config, select=_cli_codes("--select", select))
        if ignore is not None:
            config = replace(config, ignore=config.ignore + _cli_codes("--ignore", ignore))
        return config


def _matches_any(code: str, prefixes: tuple[str, ...]) -> bool:
    return any(code.startswith(prefix) for prefix in prefixes)


# ---------------------------------------------------------------------------------------------
# Loading


def load_config(start: Path) -> tuple[Config, Path | None]:
    """The config of the nearest pyproject.toml at or above `start` that has `[tool.gradguard]`."""
    start = Path(os.path.abspath(start))
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        pyproject = candidate / "pyproject.toml"
        if not pyproject.is_file():
            continue
        table = _read_toml(pyproject).get("tool", {}).get("gradguard")
        if table is not None:
            return _config_from_table(table, pyproject), pyproject
    return Config(), None


def load_config_file(path: Path) -> Config:
    """An explicit --config file: a pyproject.toml (its `[tool.gradguard]`) or a gradguard.toml."""
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    data = _read_toml(path)
    table = data.get("tool", {}).get("gradguard", {}) if path.name == "pyproject.toml" else data
    return _config_from_table(table, path)


def _read_toml(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib says "(at line N, column M)", or only "(at end of document)": add its line.
        message = str(error).replace("(at end of document)", f"(at end of document, line {text.count(chr(10)) + 1})")
        raise ConfigError(f"{path}: TOML syntax error: {message}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None


def _config_from_table(table: object, path: Path) -> Config:
    where = f"{path}: [tool.gradguard]" if path.name == "pyproject.toml" else str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    for key in table:
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}{_did_you_mean(key, _KEYS)}")
    check = Checker(where)
    return Config(
        select=check.codes("select", table.get("select", ["GG"])),
        ignore=check.codes("ignore", table.get("ignore", [])),
        per_file_ignores=check.per_file_ignores(table.get("per-file-ignores", {})),
        severity=check.severities(table.get("severity", {})),
        exclude=check.strings("exclude", table.get("exclude", [])),
        extend_exclude=check.strings("extend-exclude", table.get("extend-exclude", [])),
        root=path.parent.absolute(),
        jedi=check.boolean("jedi", table.get("jedi", True)),
        jedi_time_budget=check.seconds("jedi-time-budget", table.get("jedi-time-budget", 1.0)),
        names=NameConventions(
            extra_model_names=check.names("model-names", table.get("model-names", [])),
            extra_next_state_names=check.names("next-state-names", table.get("next-state-names", [])),
            enabled=check.boolean("guess-from-names", table.get("guess-from-names", True)),
        ),
    )


@dataclass
class Checker:
    where: str

    def fail(self, message: str) -> ConfigError:
        return ConfigError(f"{self.where}: {message}")

    def strings(self, key: str, value: object) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(f"{key}: expected a list of strings, got {_type_name(value)}")
        for item in value:
            if not isinstance(item, str):
                raise self.fail(f"{key}: expected a list of strings, got {item!r} ({_type_name(item)}) in the list"
                                + (f"; write it quoted, e.g. \"GG{item}\"" if isinstance(item, int) and key.split(".")[0] in ("select", "ignore", "per-file-ignores") else ""))
        return tuple(value)

    def boolean(self, key: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.fail(f"{key}: expected true or false, got {_type_name(value)}")
        return value

    def seconds(self, key: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 60:
            raise self.fail(f"{key}: expected a number of seconds between 0 and 60, got {value!r}")
        return float(value)

    def names(self, key: str, value: object) -> tuple[str, ...]:
        names = self.strings(key, value)
        for name in names:
            if not _NAME.match(name):
                raise self.fail(f"{key}: {name!r} is not a Python name (letters, digits and _)")
        return names

    def codes(self, key: str, value: object) -> tuple[str, ...]:
        codes = self.strings(key, value)
        for code in codes:
            problem = code_problem(code)
            if problem:
                raise self.fail(f"{key}: {problem}")
        return codes

    def per_file_ignores(self, value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
        if not isinstance(value, dict):
            raise self.fail(f"per-file-ignores: expected a table of glob = [codes], got {_type_name(value)}")
        return tuple((glob, self.codes(f"per-file-ignores.{glob!r}", codes)) for glob, codes in value.items())

    def severities(self, value: object) -> dict[str, Severity]:
        if not isinstance(value, dict):
            raise self.fail(f"severity: expected a table of code = level, got {_type_name(value)}")
        out = {}
        for code, level in value.items():
            if code not in known_codes():
                raise self.fail(f"severity: unknown rule code {code!r}{_did_you_mean(code, known_codes())}")
            if level not in {s.value for s in Severity}:
                raise self.fail(f"severity.{code}: expected \"error\", \"warning\" or \"info\", got {level!r}")
            out[code] = Severity(level)
        return out


def known_codes() -> list[str]:
    return [rule.code for rule in registry.all_rules()]


def code_problem(code: str) -> str | None:
    """Why `code` is not a rule code or a prefix of one (None when it is)."""
    if not _CODE_PREFIX.match(code):
        return f"{code!r} is not a rule code (expected e.g. \"GG101\" or a prefix like \"GG1\")"
    if not any(known.startswith(code) for known in known_codes()):
        return f"unknown rule code {code!r}{_did_you_mean(code, known_codes())}"
    return None


def _cli_codes(option: str, value: str) -> tuple[str, ...]:
    codes = tuple(part.strip().upper() for part in value.split(",") if part.strip())
    for code in codes:
        problem = code_problem(code)
        if problem:
            raise ConfigError(f"{option}: {problem}")
    return codes


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=3)
    return f" (did you mean {', '.join(map(repr, close))}?)" if close else ""


def _type_name(value: object) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "a boolean", dict: "a table",
            list: "a list"}.get(type(value), type(value).__name__)
