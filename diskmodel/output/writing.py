"""The writing: each file staged beside its target, the folders locked, every target checked
again, then all moved into place or none (a replaced file restored from a hard link).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from diskmodel.errors import OutputError
from diskmodel.output.checks import Target, check_outputs, file_identity, os_error
from diskmodel.output.names import CSV, HTML, JSON, Output


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _stage(target: Target, text: str) -> str:
    """Write `text` to a new temporary file beside the target; return its path."""
    folder = target.path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".diskmodel-", suffix=".tmp", dir=folder)
    except FileExistsError:
        raise OutputError(f"{target.path}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise os_error(target.path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            # mkstemp makes the file private (0600); a report is for sharing, so give it the
            # permissions any new file would get under the user's umask.
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
    except BaseException as exc:
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise os_error(target.path, exc) from None
        raise
    return temp


_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK}


def _unchanged(target: Target) -> None:
    """`OutputError` unless `target`'s path still holds what was checked (nothing, or the very
    file)."""
    path = target.path
    try:
        now: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        now = None
    if target.existing is None and now is not None:
        raise OutputError(f"{path}: appeared while the report was written; not replaced")
    if target.existing is not None and (
        now is None or file_identity(now) != file_identity(target.existing)
    ):
        raise OutputError(f"{path}: changed while the report was written; not replaced")


def _commit(target: Target, temp: str) -> str | None:
    """Move `temp` into place, only over the very file that was checked (or into a free name);
    return where the file it replaced is kept (a hard link beside it, None when there was no
    file or the file system has no hard links) until the command's files are all in place."""
    path = target.path
    _unchanged(target)
    if target.existing is None:
        try:
            os.link(temp, path)  # fails if anything appears at `path` meanwhile
        except OSError as exc:
            if exc.errno == errno.EEXIST:
                raise OutputError(
                    f"{path}: appeared while the report was written; not replaced"
                ) from None
            if exc.errno not in _NO_HARD_LINKS:
                raise
            os.replace(temp, path)  # a file system without hard links
        else:
            os.unlink(temp)
        return None
    kept = f"{temp}.old"
    try:
        os.link(path, kept, follow_symlinks=False)
    except OSError:
        os.replace(temp, path)  # no hard links here: a failure later cannot restore this file
        return None
    os.replace(temp, path)
    return kept


@contextlib.contextmanager
def _folders_locked(folders: Sequence[Path]) -> Iterator[None]:
    """Each folder locked (`flock` on the folder itself), in one order so that two runs
    cannot wait for each other; a folder that cannot be opened, or a system without `flock`,
    goes unlocked (the checks of `_commit` still hold)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        yield
        return
    held: list[int] = []
    try:
        for folder in sorted({os.path.realpath(f) for f in folders}):
            try:
                fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            except OSError:
                continue
            held.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        for fd in held:
            os.close(fd)  # closing the descriptor releases its lock


def write_outputs(
    outputs: Sequence[Output],
    *,
    force: bool = False,
    stdout: Callable[[str], None] | None = None,
) -> None:
    """Write every output, or none of them (`OutputError` saying why).

    `stdout` writes the text meant for standard output (the command line passes its own,
    which keeps a terminal safe); by default `sys.stdout`.
    """
    targets = check_outputs(outputs, force=force)
    staged: list[tuple[Target, str]] = []
    try:
        for out, target in zip(outputs, targets, strict=True):
            if target is not None:
                staged.append((target, _stage(target, out.text)))
        for out, target in zip(outputs, targets, strict=True):
            if target is None:
                (stdout or _write_stdout)(out.text)
        with _folders_locked([target.path.parent for target, _ in staged]):
            _put_in_place(staged)
    finally:
        for _, temp in staged:
            Path(temp).unlink(missing_ok=True)


def _put_in_place(staged: Sequence[tuple[Target, str]]) -> None:
    """Move every staged file into place (the folders locked), each target first checked
    again to be what was first checked, or none: if one fails, those already in place are
    taken back (a new file removed, a replaced one restored)."""
    for target, _ in staged:
        _unchanged(target)
    placed: list[tuple[Target, str | None]] = []
    try:
        for target, temp in staged:
            try:
                placed.append((target, _commit(target, temp)))
            except OSError as exc:
                raise os_error(target.path, exc) from None
    except BaseException:
        for target, kept in reversed(placed):
            if kept is not None:
                os.replace(kept, target.path)
            elif target.existing is None:
                target.path.unlink(missing_ok=True)
        raise
    finally:
        for _, kept in placed:
            if kept is not None:
                Path(kept).unlink(missing_ok=True)


def _write_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def write_output(path: Path, text: str, *, force: bool = False) -> Path:
    """Write one file (see `write_outputs`); return its path."""
    suffix = path.suffix.lower()
    fmt = JSON if suffix == ".json" else CSV if suffix == ".csv" else HTML
    write_outputs([Output(path, text, fmt)], force=force)
    return path
