"""Project configuration: which rules run where, read from `[tool.gradguard]` in pyproject.toml.

    [tool.gradguard]
    select = ["GG1", "GG3"]          # code prefixes, like ruff: "GG1" selects GG101..GG199
    ignore = ["GG303"]               # wins over select
    exclude = ["generated/"]         # gitignore-style globs, relative to this file's folder; replaces the defaults
    extend-exclude = ["legacy/**"]   # added to `exclude` (or to the defaults): what you usually want
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

Each file is configured by the nearest pyproject.toml with a `[tool.gradguard]` table at or above its
folder, alone: a nearer table replaces the outer one entirely (ruff's hierarchical configuration
without `extend`), so `gradguard check .` and `gradguard check sub` configure `sub/x.py` alike
(`Configs`). `--config FILE` configures every file with that one file. docs/configuration.md.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from ..diagnostics import Severity
from ..model.conventions import DEFAULT as DEFAULT_CONVENTIONS
from ..model.conventions import NameConventions
from .errors import ConfigError
from .globs import exclude_spec, glob_matches_path

# What `exclude` is unless a configuration sets it: ruff's default excludes (version control, virtual
# environments, tool caches, build output, Jupyter's checkpoint copies of every notebook), plus
# build/, __pycache__/ and gradguard's own cache. Each is a gitignore glob: a name at any depth.
DEFAULT_EXCLUDES = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
    ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".vscode",
    "__pypackages__", "_build", "buck-out", "dist", "node_modules", "site-packages", "venv",
    "build", "__pycache__", ".gradguard_cache",
)
_KEYS = ("select", "extend-select", "ignore", "per-file-ignores", "severity", "exclude", "extend-exclude", "jedi", "jedi-time-budget",
         "model-names", "next-state-names", "guess-from-names")
_NOT_SUPPORTED = {
    "extend": "gradguard does not extend configuration files: the nearest [tool.gradguard] configures its "
              "folder alone; repeat the outer settings you want to keep",
}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CODE_PREFIX = re.compile(r"^[A-Z]+[0-9]*$")


@dataclass(unsafe_hash=True)
class Config:
    select: tuple[str, ...] = ("GG",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict, hash=False)
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES  # a configuration's `exclude` replaces the defaults
    extend_exclude: tuple[str, ...] = ()
    root: Path | None = None  # folder of the config file: globs are relative to it
    jedi: bool = True          # follow calls into other modules with jedi
    jedi_time_budget: float = 1.0  # seconds of jedi per file
    names: NameConventions = DEFAULT_CONVENTIONS  # what the analysis may guess from names
    # GG900 named in `select`/`extend-select` (and not in `ignore`): report unused suppression
    # comments. Off by default, like ruff's RUF100: `select = ["GG"]` does not turn it on.
    unused_suppressions: bool = False

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

    def excluded(self, path: str | os.PathLike, is_dir: bool = False, named: bool = False) -> bool:
        """True when an `exclude`/`extend-exclude` glob matches the path or a parent.

        A file `named` on the command line (pre-commit names every file) honours the globs the
        configuration gives, but not the default excludes: `gradguard check build/x.py` checks it.
        """
        rel = self.relative(path)
        if not named and self._default_excludes and any(part in DEFAULT_EXCLUDES for part in rel.split("/")):
            return True
        globs = self._configured_excludes
        return bool(globs) and exclude_spec(globs).matches_path(rel, is_dir)

    def excluded_entry(self, path: str | os.PathLike, is_dir: bool = False) -> bool:
        """True when this entry of a walk is excluded (the walk came through its folders).

        The default excludes are names, matched against the entry's own name: a folder named on
        the command line is walked whatever its name (as ruff does). Configured globs apply to
        what is inside an excluded folder too, as they do for named files.
        """
        if self._default_excludes and os.path.basename(path) in DEFAULT_EXCLUDES:
            return True
        globs = self._configured_excludes
        return bool(globs) and exclude_spec(globs).matches(self.relative(path), is_dir)

    @property
    def _default_excludes(self) -> bool:
        return self.exclude == DEFAULT_EXCLUDES

    @property
    def _configured_excludes(self) -> tuple[str, ...]:
        return self.extend_exclude if self._default_excludes else self.exclude + self.extend_exclude

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
    """An explicit --config file, whatever its name: its `[tool.gradguard]` table when it has one
    (a pyproject.toml without one gives the defaults), else its top-level keys (a gradguard.toml)."""
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    data = _read_toml(path)
    tool = data.get("tool")
    if isinstance(tool, dict) and "gradguard" in tool:
        return _config_from_table(tool["gradguard"], path, in_tool_table=True)
    if path.name == "pyproject.toml":
        return _config_from_table({}, path, in_tool_table=True)
    return _config_from_table(data, path)


@dataclass(eq=False, repr=False)
class Configs:
    """The configuration of each path: the nearest pyproject.toml with `[tool.gradguard]` at or
    above its folder (each folder's answer cached), or one `fixed` configuration for every path
    (--config). `adjust` puts what the command line says over each file's configuration; it must
    be picklable (a module-level function or a functools.partial of one) for worker processes."""

    fixed: Config | None = None
    adjust: Callable[[Config], Config] | None = None
    _folders: dict[str, Path | None] = field(default_factory=dict, repr=False)  # folder -> its pyproject
    _configs: dict[Path | None, Config] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, config: "Config | Configs") -> "Configs":
        return config if isinstance(config, Configs) else cls(fixed=config)

    def for_path(self, path: str | os.PathLike) -> Config:
        """The configuration of a file (or of the files of a folder, for a folder)."""
        absolute = os.path.abspath(path)
        return self.for_folder(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))

    def for_folder(self, folder: str | os.PathLike) -> Config:
        """The configuration of the files directly inside `folder`."""
        if self.fixed is not None:
            return self._adjusted(None, lambda: self.fixed)
        pyproject = self._nearest(os.path.abspath(folder))
        return self._adjusted(pyproject, lambda: _config_of(pyproject) if pyproject else Config())

    def _adjusted(self, key: Path | None, load: Callable[[], Config]) -> Config:
        config = self._configs.get(key)
        if config is None:
            config = load()
            if self.adjust is not None:
                config = self.adjust(config)
            self._configs[key] = config
        return config

    def _nearest(self, folder: str) -> Path | None:
        """The nearest pyproject.toml with `[tool.gradguard]` at or above `folder`."""
        visited = []
        current = folder
        while current not in self._folders:
            visited.append(current)
            candidate = Path(current, "pyproject.toml")
            if candidate.is_file() and _has_table(candidate):
                self._folders[current] = candidate
                break
            parent = os.path.dirname(current)
            if parent == current:
                self._folders[current] = None
                break
            current = parent
        found = self._folders[current]
        for seen in visited:
            self._folders[seen] = found
        return found


def _config_of(pyproject: Path) -> Config:
    return _config_from_table(_read_toml(pyproject)["tool"]["gradguard"], pyproject)


def _has_table(pyproject: Path) -> bool:
    tool = _read_toml(pyproject).get("tool")
    return isinstance(tool, dict) and "gradguard" in tool


def _read_toml(path: Path) -> dict:
    import tomllib  # only where a pyproject.toml or gradguard.toml is read

    try:
        text = path.read_text(encoding="utf-8")
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib says "(at line N, column M)", or only "(at end of document)": add its line.
        message = str(error).replace("(at end of document)", f"(at end of document, line {text.count(chr(10)) + 1})")
        raise ConfigError(f"{path}: TOML syntax error: {message}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None


def _config_from_table(table: object, path: Path, in_tool_table: bool | None = None) -> Config:
    if in_tool_table is None:
        in_tool_table = path.name == "pyproject.toml"
    where = f"{path}: [tool.gradguard]" if in_tool_table else str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    for key in table:
        if key in _NOT_SUPPORTED:
            raise ConfigError(f"{where}: {key!r} is not supported: {_NOT_SUPPORTED[key]}")
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}{_did_you_mean(key, _KEYS)}")
    check = Checker(where)
    select = check.strings("select", table.get("select", ["GG"]))
    extend = check.strings("extend-select", table.get("extend-select", []))
    ignore = check.strings("ignore", table.get("ignore", []))
    return Config(
        select=check.codes("select", _without_gg900(select)) + check.codes("extend-select", _without_gg900(extend)),
        ignore=check.codes("ignore", _without_gg900(ignore)),
        unused_suppressions=_names_gg900(select + extend) and not _names_gg900(ignore),
        per_file_ignores=check.per_file_ignores(table.get("per-file-ignores", {})),
        severity=check.severities(table.get("severity", {})),
        exclude=check.strings("exclude", table.get("exclude", list(DEFAULT_EXCLUDES))),
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


@dataclass(eq=False, repr=False)
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


def _names_gg900(codes) -> bool:
    """`GG900` or a prefix of it longer than the family (`GG9`): the unused-suppression check,
    which runs after the rules and is not one of them."""
    return any(len(code) >= 3 and "GG900".startswith(code.upper()) for code in codes)


def _without_gg900(codes: tuple[str, ...]) -> list[str]:
    return [code for code in codes if not _names_gg900([code])]


def known_codes() -> list[str]:
    from ..catalogue import registry  # the rules' modules: only to validate codes

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
    import difflib  # only for a mistyped setting

    close = difflib.get_close_matches(word, list(choices), n=3)
    return f" (did you mean {', '.join(map(repr, close))}?)" if close else ""


def _type_name(value: object) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "a boolean", dict: "a table",
            list: "a list"}.get(type(value), type(value).__name__)
