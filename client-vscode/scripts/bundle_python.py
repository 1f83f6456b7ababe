"""Installs the gradguard server and its run-time dependencies into bundled/libs, for the .vsix.

    python scripts/bundle_python.py          # run by `npm run bundle-python` (and `npm run package`)

gradguard comes from this repository (`pip install --target` of the project in ..); its
dependencies from PyPI as wheels. libcst (and pyyaml, which it needs) have compiled modules built
per Python version and platform: the building interpreter's own are installed, then the compiled
files of the same releases for the other supported Python versions are added beside them (each is
named for its version, e.g. native.cpython-312-x86_64-linux-gnu.so), so one bundle serves Python
3.11 to 3.14 on this machine's platform. The .vsix is therefore per platform, like ruff's.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTENSION = HERE.parent
ROOT = EXTENSION.parent
LIBS = EXTENSION / "bundled" / "libs"
MANIFEST = LIBS / "gradguard-bundle.json"
PYTHONS = ["3.11", "3.12", "3.13", "3.14"]
# Stubs for jedi: their own requirements (numpy, requests) are not needed to read them.
STUBS = ["types-tensorflow", "types-protobuf"]
COMPILED_SUFFIXES = (".so", ".pyd")


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def requirement_name(requirement: str) -> str:
    for stop in "<>=!~;[ ":
        requirement = requirement.split(stop)[0]
    return requirement.strip().lower()


def dists(libs: Path) -> dict[str, tuple[str, Path]]:
    """{normalised name: (version, dist-info folder)} of what is installed in `libs`."""
    found = {}
    for path in libs.glob("*.dist-info"):
        name, version = path.name.removesuffix(".dist-info").rsplit("-", 1)
        found[name.lower().replace("_", "-")] = (version, path)
    return found


def compiled_files(dist_info: Path) -> list[str]:
    record = dist_info / "RECORD"
    if not record.exists():
        return []
    names = [line.split(",", 1)[0] for line in record.read_text(encoding="utf-8").splitlines() if line]
    return [name for name in names if name.endswith(COMPILED_SUFFIXES)]


def wheel_platforms(dist_info: Path) -> list[str]:
    tags = [line.split(":", 1)[1].strip() for line in (dist_info / "WHEEL").read_text().splitlines()
            if line.startswith("Tag:")]
    return sorted({tag.split("-", 2)[2] for tag in tags})


def add_compiled_modules(name: str, version: str, platforms: list[str], python: str) -> bool:
    """Adds the compiled files of `name==version` for another Python version; False if none exists."""
    abi = "cp" + python.replace(".", "")
    with tempfile.TemporaryDirectory() as tmp:
        args = ["download", "--quiet", "--no-deps", "--only-binary", ":all:", "--dest", tmp,
                "--python-version", python, "--implementation", "cp", "--abi", abi]
        for platform in platforms:
            args += ["--platform", platform]
        try:
            pip(*args, f"{name}=={version}")
        except subprocess.CalledProcessError:
            print(f"bundle: no {name} {version} wheel for Python {python} on {', '.join(platforms)}; skipped",
                  file=sys.stderr)
            return False
        wheels = list(Path(tmp).glob("*.whl"))
        if not wheels:
            return False
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member in wheel.namelist():
                if member.endswith(COMPILED_SUFFIXES) and ".dist-info/" not in member:
                    target = LIBS / member
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(wheel.read(member))
    return True


def main() -> int:
    if sys.version_info < (3, 11):
        print(f"bundle: needs Python 3.11+, this is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [r for r in project["dependencies"] if requirement_name(r) not in STUBS]
    stubs = [r for r in project["dependencies"] if requirement_name(r) in STUBS]
    stubs += [s for s in STUBS if s not in {requirement_name(r) for r in stubs}]

    shutil.rmtree(LIBS, ignore_errors=True)
    LIBS.mkdir(parents=True)
    common = ["install", "--quiet", "--target", str(LIBS), "--no-compile", "--upgrade"]
    pip(*common, "--only-binary", ":all:", *requirements)
    pip(*common, "--only-binary", ":all:", "--no-deps", *stubs)
    # The server itself, from this checkout (a wheel is built from the source tree).
    pip(*common, "--no-deps", str(ROOT))

    own = f"{sys.version_info[0]}.{sys.version_info[1]}"
    supported = set(PYTHONS) | {own}
    installed = dists(LIBS)
    compiled: dict[str, list[str]] = {}
    for name, (version, dist_info) in sorted(installed.items()):
        if not compiled_files(dist_info):
            continue
        platforms = wheel_platforms(dist_info)
        compiled[name] = platforms
        for python in PYTHONS:
            if python != own and not add_compiled_modules(name, version, platforms, python):
                supported.discard(python)

    for leftover in [LIBS / "bin", *LIBS.rglob("__pycache__")]:
        shutil.rmtree(leftover, ignore_errors=True)
    versions = {name: version for name, (version, _) in sorted(dists(LIBS).items())}
    manifest = {
        "pythons": sorted(supported, key=lambda v: tuple(map(int, v.split(".")))),
        "platforms": sorted({p for platforms in compiled.values() for p in platforms}),
        "packages": versions,
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"bundle: {len(versions)} packages in {LIBS.relative_to(EXTENSION)} for Python "
          f"{', '.join(manifest['pythons'])} on {', '.join(manifest['platforms']) or 'any platform'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
