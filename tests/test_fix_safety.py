"""`gradguard check --fix` never loses data (issue 7, part 3), with the real analyzer.

Every file is either the old text or the complete new one, whatever goes wrong: a failing or
interrupted write, a process killed at any moment, an editor saving meanwhile. Permissions,
owner, hard links, symlinks, read-only files and folders, line endings and BOMs are respected,
and every refusal is one clear line on stderr with exit code 2, never a traceback.
"""
from __future__ import annotations

import errno
import io
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gradguard.rules import api
from gradguard.rules.app import check, cli, files

PROGRAMS = Path(__file__).resolve().parent / "programs"
SAFE = (PROGRAMS / "bad_saliency_constant_input.py").read_text()    # GG306: a safe fix that adds a line
SAFE_FIXED = api.fix_source(SAFE)
UNSAFE = (PROGRAMS / "bad_dqn_numpy_q_values.py").read_text()       # GG101: an unsafe fix in a line
UNSAFE_FIXED = api.fix_source(UNSAFE, unsafe=True)
NOTEBOOK = (PROGRAMS / "bad_nb_reinforce_numpy_probs.ipynb").read_text()
TEMP_SUFFIX = ".gradguard-tmp"


def _check_options() -> list[str]:
    """Options for every run: jedi (being added concurrently) follows imports; not needed here."""
    actions = cli._parser()._subparsers._group_actions[0].choices["check"]._option_string_actions
    return ["--no-jedi"] if "--no-jedi" in actions else []


OPTIONS = _check_options()


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    (tmp_path / ".git").mkdir()  # the project root, for the symlink rules
    monkeypatch.chdir(tmp_path)


def fix(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["check", *OPTIONS, "--fix", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return code, out, err


def listing(folder: Path = Path(".")) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name != ".git")


def test_the_programs_used_here_are_fixed_as_expected():
    assert SAFE_FIXED.count("tape.watch(images)") == 1 and SAFE_FIXED.count("\n") == SAFE.count("\n") + 1
    assert UNSAFE_FIXED != UNSAFE and api.fix_source(UNSAFE) == UNSAFE


# ------------------------------------------------------------------------------ atomic writes


def test_fix_replaces_the_file_by_a_rename_and_leaves_nothing_behind(capsys):
    path = Path("a.py")
    path.write_text(SAFE)
    inode = path.stat().st_ino
    assert fix(capsys, "a.py")[0] == 0
    assert path.read_text() == SAFE_FIXED
    assert path.stat().st_ino != inode  # a new file renamed over the old one, not rewritten in place
    assert listing() == ["a.py"]


def test_a_failing_rename_leaves_the_old_file_and_no_temp_file(capsys, monkeypatch):
    Path("a.py").write_text(SAFE)

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    code, out, err = fix(capsys, "a.py")
    assert code == 2 and "gradguard: a.py: cannot write fixes: No space left on device" in err
    assert Path("a.py").read_text() == SAFE and listing() == ["a.py"]
    assert "a.py:20:40: GG306" in out  # what is still on disk is reported


class HalfWrite(io.FileIO):
    """A file whose write stores half the data and then fails, like a full disk."""

    def write(self, data):
        super().write(bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_write_failing_halfway_leaves_the_old_file(capsys, monkeypatch):
    Path("a.py").write_text(SAFE)
    monkeypatch.setattr(files.os, "fdopen", lambda fd, mode: HalfWrite(fd, "wb"))
    code, _, err = fix(capsys, "a.py")
    assert code == 2 and "cannot write fixes: No space left on device" in err
    assert Path("a.py").read_text() == SAFE and listing() == ["a.py"]


def test_a_failing_fsync_leaves_the_old_file(capsys, monkeypatch):
    Path("a.py").write_text(SAFE)

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(files.os, "fsync", broken)
    code, _, err = fix(capsys, "a.py")
    assert code == 2 and "cannot write fixes: Input/output error" in err
    assert Path("a.py").read_text() == SAFE and listing() == ["a.py"]


def test_ctrl_c_during_the_write_leaves_the_old_file(capsys, monkeypatch):
    Path("a.py").write_text(SAFE)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    assert cli.main(["check", *OPTIONS, "--fix", "a.py"]) == 130
    assert "gradguard: interrupted" in capsys.readouterr().err
    assert Path("a.py").read_text() == SAFE and listing() == ["a.py"]


KILLER = """\
import os, signal, sys
from gradguard.rules.app import check, cli, files

real_fsync, real_replace = os.fsync, os.replace

def writing_b(path):
    return ".b.py." in os.path.basename(str(path))  # the temp file next to b.py

def die():
    os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, no finally: like a power cut for the process

def fsync(fd):
    if writing_b(os.readlink(f"/proc/self/fd/{fd}")):
        die()
    return real_fsync(fd)

def replace(src, dst):
    if writing_b(src):
        die()
    return real_replace(src, dst)

os.{function} = {function}
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="finds the file being written through /proc")
@pytest.mark.parametrize("function", ["fsync", "replace"])
def test_a_process_killed_mid_write_leaves_every_file_old_or_new(tmp_path, function):
    """SIGKILL while b.py's fixed text is being written (before its fsync, or its rename)."""
    for name in ("a.py", "b.py", "c.py"):
        Path(name).write_text(SAFE)
    script = tmp_path / f"kill_at_{function}.py"
    script.write_text(KILLER.replace("{function}", function))
    result = subprocess.run([sys.executable, str(script), "check", *OPTIONS, "--fix", "a.py", "b.py", "c.py"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert [Path(n).read_text() for n in ("a.py", "b.py", "c.py")] == [SAFE_FIXED, SAFE, SAFE]
    leftovers = [n for n in listing() if n.endswith(TEMP_SUFFIX)]
    assert len(leftovers) == 1 and leftovers[0].startswith(".b.py.")  # hidden, and never a .py file
    assert Path(leftovers[0]).read_text() == SAFE_FIXED  # complete: written and flushed before the rename
    assert set(listing()) - set(leftovers) == {"a.py", "b.py", "c.py", script.name}


def test_a_process_killed_at_random_moments_leaves_every_file_old_or_new(tmp_path):
    """`gradguard check --fix` over 30 files, killed at several random moments."""
    rng = random.Random(7)
    folder = tmp_path / "project"
    outcomes = set()
    for attempt in range(3):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for number in range(30):
            (folder / f"m{number:02}.py").write_text(UNSAFE)
        process = subprocess.Popen([sys.executable, "-m", "gradguard.rules.app.cli", "check", *OPTIONS, "--fix",
                                    "--unsafe-fixes", "-q", str(folder)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.2))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        texts = [(folder / f"m{n:02}.py").read_text() for n in range(30)]
        assert all(text in (UNSAFE, UNSAFE_FIXED) for text in texts), f"attempt {attempt}: a file is neither"
        assert all(name.endswith(".py") or name.endswith(TEMP_SUFFIX) for name in os.listdir(folder))
        outcomes.add(sum(text == UNSAFE_FIXED for text in texts))
    assert outcomes  # how far each run got varies; every file was whole every time


# ------------------------------------------------------------------------------ changed on disk


def test_a_file_saved_by_an_editor_during_the_analysis_is_not_overwritten(capsys, monkeypatch):
    path = Path("a.py")
    path.write_text(SAFE)
    real = check.fix_document

    def editor_saves_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        path.write_text(SAFE + "# edited in the editor\n")
        return result

    monkeypatch.setattr(check, "fix_document", editor_saves_meanwhile)
    code, _, err = fix(capsys, "a.py")
    assert code == 2 and "gradguard: a.py: changed on disk since it was read; fixes not written" in err
    assert path.read_text() == SAFE + "# edited in the editor\n" and listing() == ["a.py"]


def test_a_file_saved_by_an_editor_during_the_write_is_not_overwritten(capsys, monkeypatch):
    """The check is repeated after the temp file is written, just before the rename."""
    path = Path("a.py")
    path.write_text(SAFE)
    real = os.fsync
    saved = []

    def editor_saves_during_the_write(fd):
        if not saved:
            path.write_text("# the editor's version\n")
            saved.append(True)
        return real(fd)

    monkeypatch.setattr(files.os, "fsync", editor_saves_during_the_write)
    code, _, err = fix(capsys, "a.py")
    assert code == 2 and "changed on disk since it was read; fixes not written" in err
    assert path.read_text() == "# the editor's version\n" and listing() == ["a.py"]


def test_a_file_deleted_during_the_analysis_is_reported_and_not_recreated(capsys, monkeypatch):
    Path("a.py").write_text(SAFE)
    real = check.fix_document

    def deleted_meanwhile(*args, **kwargs):
        Path("a.py").unlink()
        return real(*args, **kwargs)

    monkeypatch.setattr(check, "fix_document", deleted_meanwhile)
    code, _, err = fix(capsys, "a.py")
    assert code == 2 and "gradguard: a.py: cannot write fixes: No such file or directory" in err
    assert listing() == []


def test_the_same_file_named_three_ways_is_fixed_once(capsys):
    Path("a.py").write_text(SAFE)
    Path("link.py").symlink_to("a.py")
    code, out, err = fix(capsys, "a.py", "./a.py", "link.py")
    assert (code, err) == (0, "") and out.endswith("(1 fixed, 0 remaining).\n")
    assert Path("a.py").read_text() == SAFE_FIXED and Path("link.py").is_symlink()


# ------------------------------------------------------------------------------ permissions


@pytest.mark.parametrize("mode", [0o640, 0o600, 0o664, 0o755, 0o700, 0o2755])
def test_permission_bits_are_kept(capsys, mode):
    path = Path("a.py")
    path.write_text(SAFE)
    path.chmod(mode)
    assert fix(capsys, "a.py")[0] == 0
    assert path.read_text() == SAFE_FIXED and stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_owner_and_group_are_kept_when_root_fixes_a_users_file(capsys):
    path = Path("a.py")
    path.write_text(SAFE)
    os.chown(path, 1234, 2345)
    assert fix(capsys, "a.py")[0] == 0
    assert path.read_text() == SAFE_FIXED and (path.stat().st_uid, path.stat().st_gid) == (1234, 2345)


def test_a_hard_linked_file_is_reported_not_split_from_its_links(capsys):
    """A rename would give `a.py` a new inode and leave `other.py` with the old text, silently."""
    Path("a.py").write_text(SAFE)
    os.link("a.py", "other.py")
    code, out, err = fix(capsys, "a.py")
    assert code == 2
    assert "gradguard: a.py: file has 1 other hard link(s) that a rewrite would not update; fixes not written" in err
    assert Path("a.py").read_text() == Path("other.py").read_text() == SAFE
    assert os.stat("a.py").st_ino == os.stat("other.py").st_ino and "a.py:20:40: GG306" in out


# ------------------------------------------------------------------------------ symlinks


def test_a_symlink_inside_the_project_is_written_through_and_stays_a_link(capsys):
    Path("src").mkdir()
    Path("src/real.py").write_text(SAFE)
    Path("link.py").symlink_to("src/real.py")
    assert fix(capsys, "link.py")[0] == 0
    assert Path("link.py").is_symlink() and Path("src/real.py").read_text() == SAFE_FIXED


def test_a_symlink_out_of_the_project_is_reported_and_not_followed(capsys, tmp_path):
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "theirs.py").write_text(SAFE)
    Path("theirs.py").symlink_to(outside / "theirs.py")
    Path("vendor").symlink_to(outside, target_is_directory=True)
    Path("mine.py").write_text(SAFE)
    for argv in (["theirs.py"], ["."]):
        code, _, err = fix(capsys, *argv)
        assert "theirs.py: symlink to" in err and "points outside the project; skipped" in err
        assert (outside / "theirs.py").read_text() == SAFE
    assert "vendor: symlink to" in err and Path("mine.py").read_text() == SAFE_FIXED
    shutil.rmtree(outside)


def test_dangling_symlinks_and_symlink_loops_do_not_crash(capsys):
    Path("a.py").write_text(SAFE)
    Path("gone.py").symlink_to("missing.py")
    Path("loop1.py").symlink_to("loop2.py")
    Path("loop2.py").symlink_to("loop1.py")
    Path("dir_loop").mkdir()
    Path("dir_loop/again").symlink_to("..", target_is_directory=True)
    code, _, err = fix(capsys, ".")
    assert code == 0 and Path("a.py").read_text() == SAFE_FIXED
    assert "loop1.py: symlink loop; skipped" in err and "loop2.py: symlink loop; skipped" in err
    code, out, err = fix(capsys, "gone.py", "loop1.py", "a.py")  # named explicitly: exit 2 like a missing path
    assert code == 2 and "Traceback" not in err
    assert "gradguard: gone.py: symlink to missing.py, which does not exist; cannot be read" in err
    assert "gradguard: loop1.py: symlink loop; cannot be read" in err


# ------------------------------------------------------------------------------ read-only


def test_a_read_only_file_is_reported_not_written(capsys):
    """By its permission bits, so the refusal holds for root too (root could write it)."""
    path = Path("a.py")
    path.write_text(SAFE)
    path.chmod(0o444)
    code, out, err = fix(capsys, "a.py")
    assert code == 2 and "gradguard: a.py: file is read-only; fixes not written" in err
    assert path.read_text() == SAFE and stat.S_IMODE(path.stat().st_mode) == 0o444 and "GG306" in out


def test_a_read_only_folder_is_reported_and_the_other_files_still_fixed(capsys, monkeypatch):
    """Simulated (root can create files anywhere): the temp file cannot be created in `locked/`."""
    Path("locked").mkdir()
    Path("locked/a.py").write_text(SAFE)
    Path("b.py").write_text(SAFE)
    import tempfile  # what files.py writes its temp files with (imported where it writes)

    real = tempfile.mkstemp

    def mkstemp(dir=None, **kwargs):
        if Path(dir).name == "locked":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    code, _, err = fix(capsys, ".")
    assert code == 2 and "gradguard: locked/a.py: cannot write fixes: Permission denied" in err
    assert Path("locked/a.py").read_text() == SAFE and Path("b.py").read_text() == SAFE_FIXED


def _as_nobody() -> list[str] | None:
    """A command prefix that runs as an unprivileged user (as root), or [] when not root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import gradguard.rules.app.cli"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def test_read_only_files_and_folders_for_a_real_unprivileged_user(tmp_path):
    """Not simulated: the CLI runs as `nobody` (through setpriv when the tests run as root)."""
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("cannot run a process as an unprivileged user here")
    shared = Path(os.environ.get("TMPDIR", "/tmp")) / f"gradguard-nobody-{os.getpid()}"  # nobody can reach it
    shutil.rmtree(shared, ignore_errors=True)
    try:
        (shared / "locked").mkdir(parents=True)
        for path, mode in ((shared / "ro.py", 0o444), (shared / "theirs.py", 0o644),
                           (shared / "locked" / "in_locked.py", 0o666), (shared / "ok.py", 0o644)):
            path.write_text(SAFE)
            path.chmod(mode)
        if prefix:  # root sets the scene for nobody: files nobody owns, one file only root may write
            for path in (shared, shared / "locked", shared / "ro.py", shared / "locked" / "in_locked.py",
                         shared / "ok.py"):
                os.chown(path, 65534, 65534)
        shared.chmod(0o755)
        (shared / "locked").chmod(0o555)
        env = {**os.environ, "HOME": str(shared), "PYTHONDONTWRITEBYTECODE": "1"}
        result = subprocess.run([*prefix, sys.executable, "-m", "gradguard.rules.app.cli", "check", *OPTIONS, "--fix",
                                 str(shared)], capture_output=True, text=True, env=env, cwd=shared, timeout=120)
        err = result.stderr
        assert result.returncode == 2 and "Traceback" not in err and "internal error" not in err, err
        assert "ro.py: file is read-only; fixes not written" in err
        assert "in_locked.py: cannot write fixes: Permission denied" in err
        if prefix:
            assert "theirs.py: file is read-only; fixes not written" in err  # root's file, mode 644
        for name in ("ro.py", "theirs.py", "locked/in_locked.py"):
            assert (shared / name).read_text() == SAFE, name
        assert (shared / "ok.py").read_text() == SAFE_FIXED
        assert sorted(os.listdir(shared / "locked")) == ["in_locked.py"]
    finally:
        (shared / "locked").chmod(0o755)
        shutil.rmtree(shared, ignore_errors=True)


# ------------------------------------------------------------------------------ layout


def test_crlf_endings_are_kept_and_used_for_inserted_lines(capsys):
    Path("a.py").write_bytes(SAFE.replace("\n", "\r\n").encode())
    assert fix(capsys, "a.py")[0] == 0
    data = Path("a.py").read_bytes()
    assert data == SAFE_FIXED.replace("\n", "\r\n").encode()


def test_a_bom_is_kept(capsys):
    Path("a.py").write_bytes(b"\xef\xbb\xbf" + SAFE.encode())
    Path("b.py").write_bytes(b"\xef\xbb\xbf" + SAFE.replace("\n", "\r\n").encode())
    assert fix(capsys, "a.py", "b.py")[0] == 0
    assert Path("a.py").read_bytes() == b"\xef\xbb\xbf" + SAFE_FIXED.encode()
    assert Path("b.py").read_bytes() == b"\xef\xbb\xbf" + SAFE_FIXED.replace("\n", "\r\n").encode()


def test_a_file_without_a_final_newline_gets_none(capsys):
    Path("a.py").write_text(UNSAFE.rstrip("\n"))
    assert fix(capsys, "--unsafe-fixes", "a.py")[0] == 0
    assert Path("a.py").read_text() == UNSAFE_FIXED.rstrip("\n")


def test_mixed_endings_keep_every_untouched_line_as_it_was(capsys):
    lines = SAFE.splitlines(keepends=True)
    mixed = "".join(line.replace("\n", "\r\n") if number % 3 == 0 else line for number, line in enumerate(lines))
    Path("a.py").write_bytes(mixed.encode())
    assert fix(capsys, "a.py")[0] == 0
    new_lines = Path("a.py").read_bytes().decode().splitlines(keepends=True)
    old_lines = mixed.splitlines(keepends=True)
    assert new_lines[:17] + new_lines[18:] == old_lines and new_lines[17].rstrip("\r\n") == "    tape.watch(images)"


def test_cr_only_endings_are_kept(capsys):
    Path("a.py").write_bytes(SAFE.replace("\n", "\r").encode())
    assert fix(capsys, "a.py")[0] == 0
    assert Path("a.py").read_bytes() == SAFE_FIXED.replace("\n", "\r").encode()


def test_stdin_fix_keeps_the_bom_and_the_endings(capsysbinary, monkeypatch):
    data = b"\xef\xbb\xbf" + SAFE.replace("\n", "\r\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = cli.main(["check", *OPTIONS, "--fix", "-", "--stdin-filename", "a.py"])
    out, err = capsysbinary.readouterr()
    assert code == 0 and out == b"\xef\xbb\xbf" + SAFE_FIXED.replace("\n", "\r\n").encode()


def _cells(text: str) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(text)["cells"] if cell["cell_type"] == "code"]


def test_a_windows_notebook_keeps_crlf_json_and_no_final_newline(capsys):
    crlf = NOTEBOOK.replace("\n", "\r\n").rstrip("\r\n")
    Path("n.ipynb").write_bytes(b"\xef\xbb\xbf" + crlf.encode())
    assert fix(capsys, "--unsafe-fixes", "n.ipynb")[0] == 0
    data = Path("n.ipynb").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data.endswith(b"\n")
    text = data.decode("utf-8-sig")
    assert "\n" not in text.replace("\r\n", "")  # every line break is still CRLF
    assert _cells(text) != _cells(NOTEBOOK) and len(text.splitlines()) == len(NOTEBOOK.splitlines())


def test_a_unix_notebook_is_written_as_jupyter_writes_it(capsys):
    Path("n.ipynb").write_text(NOTEBOOK)
    assert fix(capsys, "--unsafe-fixes", "n.ipynb")[0] == 0
    text = Path("n.ipynb").read_text()
    assert "\r" not in text and text.endswith("}\n") and len(text.splitlines()) == len(NOTEBOOK.splitlines())


# ------------------------------------------------------------------------------ nothing else is touched


def test_files_that_cannot_be_analysed_are_never_written(capsys):
    Path("syntax.py").write_text(SAFE + "def broken(:\n")
    Path("latin1.py").write_bytes(SAFE.encode() + b"# caf\xe9\n")
    Path("binary.py").write_bytes(b"\x00\x01" + SAFE.encode())
    Path("bad.ipynb").write_text('{"cells": [')
    before = {name: Path(name).read_bytes() for name in listing()}
    code, out, _ = fix(capsys, "--unsafe-fixes", ".")
    assert code == 1 and {name: Path(name).read_bytes() for name in listing()} == before
    assert "E999" in out and out.count("E902") == 3


def test_diff_writes_nothing_even_with_fix(capsys):
    Path("a.py").write_text(SAFE)
    code = cli.main(["check", *OPTIONS, "--fix", "--diff", "a.py"])
    out = capsys.readouterr().out
    assert code == 1 and "+    tape.watch(images)" in out and Path("a.py").read_text() == SAFE


def test_the_writer_itself(tmp_path):
    """write_atomic's contract directly: None on success, else the reason, the file untouched."""
    path = tmp_path / "w.py"
    path.write_bytes(b"old\n")
    assert files.write_atomic(path, b"stale\n", b"new\n") == files.CHANGED_ON_DISK
    assert files.write_atomic(path, b"old\n", b"new\n") is None and path.read_bytes() == b"new\n"
    path.chmod(0o444)
    assert files.write_atomic(path, b"new\n", b"newer\n") == "file is read-only; fixes not written"
    assert path.read_bytes() == b"new\n"
    assert files.write_atomic(tmp_path / "missing.py", b"", b"x") == "cannot write fixes: No such file or directory"
    assert listing(tmp_path) == ["w.py"]
