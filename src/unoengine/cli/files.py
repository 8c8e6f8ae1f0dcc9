"""Reading and writing the ``uno`` command's files: bounded reads, atomic writes.

- :func:`read_text` reads a regular file (:func:`read_stdin_text`: standard input) of at most
  :data:`MAX_INPUT_BYTES` (16 MiB) of UTF-8, and refuses anything else with a
  :class:`FileRefusedError` that names the file and the problem.
- :func:`write_text` writes a file atomically: a temporary file in the same
  folder, flushed and synced to disk, then renamed over the target. A reader, or
  a game killed in the middle of a save, finds the old content or the new, never
  a part. It never writes through a symbolic link, and never over anything but a
  regular file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from unoengine.core.errors import excerpt
from unoengine.core.record import MAX_RECORD_BYTES

MAX_INPUT_BYTES = MAX_RECORD_BYTES
"""The most the command reads from one file: 16 MiB."""

_OPEN_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_OPEN_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


class FileRefusedError(OSError):
    """A file that cannot be read or written; ``str(error)`` is ``"NAME: problem"``."""

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(problem)
        self.path = str(path)
        self.problem = problem

    @property
    def name(self) -> str:
        """The file's name as a message shows it: escaped, and cut when long."""
        return shown_path(self.path)

    def __str__(self) -> str:
        return f"{self.name}: {self.problem}"


def shown_path(path: Path | str) -> str:
    """A file name as a message may show it: escaped (no terminal escape), and cut when long."""
    return excerpt(str(path), 160, quote=False)


def problem_of(error: OSError) -> str:
    """An operating-system error in words, lower case: ``no such file or directory``."""
    if isinstance(error, FileRefusedError):
        return error.problem
    words = error.strerror or str(error) or type(error).__name__
    return words[:1].lower() + words[1:]


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"


def _decode(path: Path | str, data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileRefusedError(path, f"not UTF-8 (byte {error.start})") from None
    return text.removeprefix("\ufeff")


def _read_limited(stream: BinaryIO, path: Path | str, limit: int) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise FileRefusedError(path, f"larger than the limit of {_size(limit)}")
    return data


def read_text(path: Path | str, *, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes of UTF-8.

    A leading byte-order mark is dropped. At most ``limit + 1`` bytes are ever read.

    Raises:
        FileRefusedError: the file cannot be read, is not a regular file, is
            larger than ``limit``, or is not UTF-8.
    """
    _check_name(path)
    try:
        descriptor = os.open(path, _OPEN_READ)
    except OSError as error:
        raise FileRefusedError(path, problem_of(error)) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(path, "is a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file")
        if info.st_size > limit:
            raise FileRefusedError(path, f"larger than the limit of {_size(limit)}")
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = _read_limited(stream, path, limit)
    except FileRefusedError:
        raise
    except OSError as error:
        raise FileRefusedError(path, problem_of(error)) from None
    finally:
        os.close(descriptor)
    return _decode(path, data)


def read_stdin_text(*, limit: int = MAX_INPUT_BYTES) -> str:
    """What standard input holds (a pipe, a file, a terminal): at most ``limit`` bytes of UTF-8.

    Raises:
        FileRefusedError: more than ``limit`` bytes, not UTF-8, or not readable.
    """
    return _decode("standard input", _read_stdin(limit))


def _read_stdin(limit: int) -> bytes:
    stream = sys.stdin
    if stream is None:
        raise FileRefusedError("standard input", "not open")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return _read_limited(buffer, "standard input", limit)
        text = stream.read(limit + 1)
    except OSError as error:
        raise FileRefusedError("standard input", problem_of(error)) from None
    data = text.encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise FileRefusedError("standard input", f"larger than the limit of {_size(limit)}")
    return data


def _check_name(path: Path | str) -> None:
    """Refuse a name no system call takes (Python raises ``ValueError`` for it, not ``OSError``)."""
    if "\x00" in str(path):
        raise FileRefusedError(path, "not a file name (it holds a NUL character)")


def check_writable(path: Path) -> None:
    """Refuse, before anything is written, a target :func:`write_text` would refuse.

    Raises:
        FileRefusedError: the name is empty, its folder does not exist, or it
            names a symbolic link, a folder or anything but a regular file.
    """
    if not str(path):
        raise FileRefusedError(path, "not a file name")
    _check_name(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise FileRefusedError(path, problem_of(error)) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise FileRefusedError(path, "is a symbolic link (never written through)")
        if stat.S_ISDIR(info.st_mode):
            raise FileRefusedError(path, "is a folder")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(path, "not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise FileRefusedError(path, f"no such folder {shown_path(folder)}")


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: all of it, or nothing changed.

    The text goes to a new temporary file in the same folder (``.NAME.*.tmp``),
    which is flushed and synced to disk and then renamed over ``path``; the folder
    is synced too. An existing file keeps its permissions. A process killed at
    any moment leaves ``path`` whole (the old text or the new), and at worst a
    temporary file beside it.

    Raises:
        FileRefusedError: ``path`` is a symbolic link, a folder or not a regular
            file, its folder does not exist, or the system refused (no space
            left, no permission): the message says which.
    """
    check_writable(path)
    data = text.encode("utf-8")
    folder = path.parent
    try:
        mode = stat.S_IMODE(os.stat(path, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        mode = None
    temporary, descriptor = _create_temporary(path)
    try:
        try:
            if mode is not None:
                os.fchmod(descriptor, mode)
            view = memoryview(data)
            while view:
                written = os.write(descriptor, view)
                view = view[written:]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise FileRefusedError(path, problem_of(error)) from None
        raise
    _sync_folder(folder)


def _create_temporary(path: Path) -> tuple[Path, int]:
    """A new file beside ``path``, opened for writing, that no one else has opened (O_EXCL, no link followed)."""
    for _ in range(100):
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return temporary, os.open(temporary, _OPEN_WRITE, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno == errno.ENOENT:
                raise FileRefusedError(path, f"no such folder {shown_path(path.parent)}") from None
            raise FileRefusedError(path, problem_of(error)) from None
    raise FileRefusedError(path, "cannot create a temporary file beside it")


def _sync_folder(folder: Path) -> None:
    """Sync the folder, so that the rename itself survives a crash (best effort: not every system can)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
