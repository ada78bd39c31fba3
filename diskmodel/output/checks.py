"""The checks before anything is written: a path may be written only if nothing is there, or
a regular file (never a link, a device, a pipe, a socket or a folder) that diskmodel wrote or
`--force` allows; two outputs to one file are refused.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.errors import OutputError
from diskmodel.output.mark import marked_as_ours, read_head
from diskmodel.output.names import NAME_MAX_BYTES, STDOUT, Output


@dataclass(frozen=True)
class Target:
    """A checked output path: what is there now (None: nothing) and the file's identity."""

    path: Path
    existing: os.stat_result | None

    @property
    def key(self) -> str:
        """One spelling per file: the real folder and the name (`r/x` and `./r/x` agree)."""
        return os.path.normcase(os.path.join(os.path.realpath(self.path.parent), self.path.name))


def os_error(path: Path, exc: OSError) -> OutputError:
    """The user's error for an OS error on `path`: a name too long says how long."""
    if exc.errno == errno.ENAMETOOLONG:
        longest = max((len(os.fsencode(p)) for p in path.parts), default=0)
        return OutputError(
            f"{_short(path)}: the file name is too long for the file system ({longest} bytes; "
            f"most take at most {NAME_MAX_BYTES}); choose a shorter one"
        )
    return OutputError(f"{path}: cannot be written ({exc.strerror or exc})")


def _short(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else f"{text[:40]}...{text[-30:]}"


def _check(path: Path, force: bool) -> Target:
    """Raise `OutputError` unless `path` may be written; `force` replaces foreign files."""
    name = path.name
    if len(os.fsencode(name)) > NAME_MAX_BYTES:
        raise os_error(path, OSError(errno.ENAMETOOLONG, "File name too long"))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return Target(path, None)
    except NotADirectoryError:
        raise OutputError(f"{path}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise os_error(path, exc) from None
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(path)
        hint = "; for standard output give -" if "/fd/" in target or "stdout" in target else ""
        raise OutputError(
            f"{path}: is a symbolic link (to {target}); diskmodel neither writes through nor "
            f"replaces a link, not even with --force: give the file's own path{hint}"
        )
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a folder; give a file name for the output")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(
            f"{path}: is not a regular file (a device, a pipe or a socket); it is never "
            "replaced, not even with --force (for standard output give -)"
        )
    if not force and not _same_file_is_ours(path, info):
        raise OutputError(
            f"{path}: exists and was not written by diskmodel; choose another file, or pass "
            "--force to replace it"
        )
    return Target(path, info)


def _same_file_is_ours(path: Path, info: os.stat_result) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return False
    try:
        now = os.fstat(fd)
        if file_identity(now) != file_identity(info) or not stat.S_ISREG(now.st_mode):
            return False
        return marked_as_ours(read_head(fd))
    finally:
        os.close(fd)


def check_outputs(outputs: Sequence[Output], *, force: bool = False) -> list[Target | None]:
    """Check every output before any is written: `OutputError` if one may not be.

    Also refuses two outputs to one file or both to standard output (fuzzing found `--out X
    --json X` exiting 0 with the JSON silently lost).
    """
    targets: list[Target | None] = []
    seen: dict[str, Output] = {}
    for out in outputs:
        target = None if out.path is None else _check(out.path, force)
        key = STDOUT if target is None else target.key
        if target is not None and target.existing is not None:
            key = f"{target.existing.st_dev}:{target.existing.st_ino}"
        if key in seen:
            other = seen[key]
            raise OutputError(
                f"{out.shown}: the {other.format.kind} ({other.format.flag} {other.shown}) and "
                f"the {out.format.kind} ({out.format.flag}) would be the same file; give each "
                "its own"
            )
        seen[key] = out
        targets.append(target)
    return targets


def check_output_path(path: Path, *, force: bool = False) -> None:
    """Raise `OutputError` if `path` may not be written (see the module docstring)."""
    _check(path, force)


def file_identity(info: os.stat_result) -> tuple[int, int, int, int]:
    """What tells one file from another that took its place (an inode number is reused at
    once on some file systems: a link made after an unlink can have the file's number)."""
    return (info.st_dev, info.st_ino, info.st_mode, info.st_ctime_ns)
