"""The files `gradguard check` reads and writes: decoding, and crash-safe writes of fixed text."""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, Severity, Span
from ..project.files import resolve
from .output import Finding



@dataclass(eq=False, repr=False)
class Document:
    """One checked file: its bytes as read (to detect changes) and its text (BOM removed)."""

    display: str
    path: Path | None          # None for stdin
    raw: bytes
    text: str
    bom: bool = False

    @property
    def is_notebook(self) -> bool:
        return self.display.endswith(".ipynb")

    def encode(self, text: str) -> bytes:
        if self.is_notebook:
            text = _json_layout_like(self.text, text)
        return ("\ufeff" if self.bom else "").encode() + text.encode("utf-8")


def _json_layout_like(original: str, text: str) -> str:
    """Notebook JSON written back with the original's line endings and final newline.

    Notebook.apply writes "\n" and a final newline; a notebook saved on Windows (CRLF) would
    otherwise change on every line. Newlines inside JSON strings are escaped, so every raw
    newline is layout and safe to convert.
    """
    if "\r\n" in original and not re.search(r"(?<!\r)\n", original):
        text = text.replace("\n", "\r\n")
    if not original.endswith("\n"):
        text = text.rstrip("\r\n")
    return text


def decode(display: str, path: Path | None, raw: bytes) -> Document:
    """A Document, or UnicodeError with a message fit for the user."""
    if b"\x00" in raw:
        raise UnicodeError("binary file (contains NUL bytes); not checked")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        raise UnicodeError(f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start}); not checked") from None
    bom = text.startswith("\ufeff")
    return Document(display, path, raw, text[1:] if bom else text, bom)


def file_finding(display: str, message: str) -> Finding:
    """A problem with the file itself (unreadable, not text), reported like a finding (E902)."""
    return display, "", Diagnostic("E902", Severity.ERROR, message, Span(1, 0, 1, 0))


CHANGED_ON_DISK = "changed on disk since it was read; fixes not written"


def write_atomic(path: Path, expected: bytes, data: bytes) -> str | None:
    """Replace the file's content; None on success, else why nothing was written.

    Refuses when the file changed since it was read (an editor saved meanwhile; checked again
    just before the rename), is read-only, or has other hard links (a rename would silently
    leave them with the old text). Writes through a symlink to its target, keeps the permission
    bits and (where allowed) the owner, and never leaves a half-written file: temp file in the
    same folder, fsync, os.replace, fsync of the folder. Tests: tests/test_fix_safety.py.
    """
    target = resolve(path)
    if target is None:  # became a symlink loop since it was read
        return "symlink loop; fixes not written"
    try:
        info = target.stat()
        if target.read_bytes() != expected:
            return CHANGED_ON_DISK
        if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
            return "file is read-only; fixes not written"
        if info.st_nlink > 1:
            return f"file has {info.st_nlink - 1} other hard link(s) that a rewrite would not update; fixes not written"
        if not _replace(target, data, info, lambda: target.read_bytes() == expected):
            return CHANGED_ON_DISK
    except OSError as error:
        return f"cannot write fixes: {error.strerror or error}"
    return None


def _replace(target: Path, data: bytes, info: os.stat_result, unchanged: Callable[[], bool]) -> bool:
    """Write `data` next to `target` and rename it over `target`; False (nothing written) when
    `unchanged()` says the target changed while the temp file was being written."""
    import tempfile  # here: only a run that writes a file needs it (it brings random and shutil)

    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".gradguard-tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(info.st_mode))
        _keep_owner(temp, info)
        if not unchanged():  # an editor saved during the write: its text wins
            Path(temp).unlink(missing_ok=True)
            return False
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)
    return True


def _keep_owner(temp: str, info: os.stat_result) -> None:
    """The new file belongs to the old one's owner and group (root fixing a user's file)."""
    if (os.stat(temp).st_uid, os.stat(temp).st_gid) == (info.st_uid, info.st_gid) or not hasattr(os, "chown"):
        return
    try:
        os.chown(temp, info.st_uid, info.st_gid)
    except OSError:
        pass  # not allowed (not root): the file keeps its content and mode, owned by whoever fixed it


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (a crash right after it could otherwise lose it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not supported here (some file systems, Windows)
    finally:
        os.close(fd)


