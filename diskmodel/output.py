"""Writing result files safely: atomically, and never over a file diskmodel did not write.

A report is written to a temporary file beside its target and renamed into place, so a failure
half-way never leaves a partial report. An existing file is replaced only if it carries
diskmodel's generator mark (it is an earlier report) or the user passed `--force`: a typo in
`--out` must not destroy someone's spreadsheet.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from diskmodel.errors import OutputError

GENERATOR_MARKS = (
    '<meta name="generator" content="diskmodel',  # HTML reports
    '"generator": "diskmodel',  # JSON results
)
"""Text found near the top of every file diskmodel writes."""

_MARK_WINDOW = 4096


def is_diskmodel_output(path: Path) -> bool:
    """True if `path` starts like a file diskmodel wrote."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_MARK_WINDOW).decode("utf-8", errors="replace")
    except OSError:
        return False
    return any(mark in head for mark in GENERATOR_MARKS)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output_path(path: Path, *, force: bool = False) -> None:
    """Raise `OutputError` if `write_output(path, ..., force=force)` would refuse `path`.

    A command writing several files checks them all first, so that a refusal leaves none
    written (fuzzing found `run --json ok.json --out foreign.html` writing ok.json, then
    stopping at foreign.html).
    """
    if path.is_dir():
        raise OutputError(f"{path}: is a directory; give a file name for the output")
    if path.exists() and not path.is_file():
        # Not even with --force: renaming a report over /dev/null (as root) would replace the
        # device with a file (found while fuzzing output paths).
        raise OutputError(f"{path}: is not a regular file (a device or a pipe?); not replaced")
    if path.exists() and not force and not is_diskmodel_output(path):
        raise OutputError(
            f"{path}: exists and was not written by diskmodel; choose another file, or pass "
            "--force to replace it"
        )


def write_output(path: Path, text: str, *, force: bool = False) -> Path:
    """Write `text` to `path` atomically; refuse to replace a foreign file unless `force`."""
    check_output_path(path, force=force)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot be written ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        # mkstemp makes the file private (0600); a report is for sharing, so give it the
        # permissions any new file would get under the user's umask.
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot be written ({exc.strerror})") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path
