"""Writing result files safely: one path for every file a command writes.

The rules (docs/SECURITY.md, "What it writes"):

- `-` is standard output. Otherwise the name ends in the format's extension or in none
  (`--out r.pdf` is refused: the format follows the flag); a name ending in `/`, or naming a
  folder, means that folder with the default file name.
- An existing path is replaced only if it is a regular file, not a symbolic link, and either
  carries diskmodel's generator mark in its own head (an earlier report) or `--force` was
  given. A link, a device, a pipe, a socket or a folder is never replaced, not even with
  `--force`: a link to `/proc/self/fd/1` or `/dev/stdout` would otherwise be replaced by a
  file, or the file it points to judged instead of the link. The mark is read through a
  descriptor opened with `O_NOFOLLOW | O_NONBLOCK`, and only from a regular file.
- All files of one command are checked before any is written, two names for one file
  (`--out X --json X`, `r/x.html` and `./r/x.html`) are refused, each file is written to a
  temporary file beside its target and then moved into place: a new file by `link` (which
  fails if anything has appeared there meanwhile), an existing one by `rename` only if the
  path still holds the very file that was checked. Both files or neither: if a later step
  fails, the files already put in place are taken back, a replaced one by the earlier file
  (kept by a hard link until the command's files are all in place).
- Runs writing to one folder take turns: the folders of a command's files are locked
  (`flock` on the folder itself, no lock file) while every target is checked again to be
  the file first checked and the files are moved into place. Concurrent runs to one output
  once left one run's JSON beside another's HTML (a run checked both, another replaced the
  HTML, and the first replaced the JSON before finding the HTML changed: issue 33 item 6).
- `--csv DIR` writes one `<table>.csv` per table into the folder DIR (made if absent); each
  file's first line `# diskmodel <version>: <caption>` is its mark, and so is a calibrated
  scenario's and a fitted catalog file's (`calibrate --out`).
"""

from __future__ import annotations

import contextlib
import errno
import html.parser
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.errors import OutputError

STDOUT = "-"
"""The output name that means standard output."""

_HEAD_BYTES = 16384
"""How much of an existing file is read to find the generator mark in its head."""

NAME_MAX_BYTES = 255
"""The longest file name most file systems take (ext4, XFS, APFS, NTFS in UTF-16 units)."""


@dataclass(frozen=True)
class Format:
    """What a flag writes: its name in messages, its extensions, its default file name."""

    kind: str  # "HTML report"
    flag: str  # "--out"
    extensions: tuple[str, ...]  # the first is the default


HTML = Format("HTML report", "--out", (".html", ".htm"))
JSON = Format("JSON result", "--json", (".json",))
CSV = Format("CSV table", "--csv", (".csv",))
YAML = Format("calibrated scenario", "--out", (".yaml", ".yml"))


@dataclass(frozen=True)
class Output:
    """One result to write: where (`None` for standard output), what, and in which format."""

    path: Path | None
    text: str
    format: Format

    @property
    def shown(self) -> str:
        """The name a message gives it."""
        return "standard output" if self.path is None else str(self.path)


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}")
"""A suffix that reads as a file type (`.pdf`, `.xlsx`), not a version or date (`.2024-05`)."""


def output_path(raw: str, fmt: Format, default_stem: str) -> Path | None:
    """The file `--out`/`--json RAW` names (`None` for standard output), or `OutputError`.

    `default_stem` names the file when `raw` is a folder (`reports/`, or an existing folder).
    """
    if raw == STDOUT:
        return None
    if not raw:
        raise OutputError(f"{fmt.flag}: the file name is empty; give one, or - for stdout")
    if "\0" in raw:
        raise OutputError(f"{fmt.flag}: the file name holds a NUL byte")
    path = Path(raw)
    if raw.endswith(("/", os.sep)) or _is_folder(path):
        path = path / f"{default_stem}{fmt.extensions[0]}"
    suffix = path.suffix
    if _EXTENSION.fullmatch(suffix) and suffix.lower() not in fmt.extensions:
        raise OutputError(
            f"{path}: {fmt.flag} writes the {fmt.kind}, but the name ends in {suffix}; "
            f"give a name ending in {' or '.join(fmt.extensions)} (or - for standard output)"
        )
    return path


def csv_paths(raw: str, stems: Sequence[str]) -> list[Path]:
    """The files `--csv RAW` writes, one `<stem>.csv` per table in the folder RAW (made if
    it does not exist), or `OutputError`: RAW must name a folder, not a file or `-`."""
    if raw == STDOUT:
        raise OutputError(
            "--csv: a folder is needed (one file per table), not standard output; for one "
            "machine-readable result give --json -"
        )
    if not raw or "\0" in raw:
        raise OutputError("--csv: give a folder name")
    folder = Path(raw)
    if folder.exists() and not _is_folder(folder):
        raise OutputError(
            f"{folder}: --csv writes one file per table into a folder; this is a file"
        )
    return [folder / f"{stem}.csv" for stem in stems]


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.stat().st_mode)
    except (OSError, ValueError):
        return False


# ------------------------------------------------------------------------- the generator mark


class _HeadReader(html.parser.HTMLParser):
    """Finds `<meta name="generator" content="diskmodel ...">` as an element of the head.

    A tag quoted in a comment, a script or a style is not an element, so it does not count.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.marked = False
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if tag == "body":
            self.done = True
        elif tag == "meta":
            values = {k: (v or "") for k, v in attrs}
            if values.get("name", "").lower() == "generator" and values.get(
                "content", ""
            ).startswith("diskmodel"):
                self.marked = True
                self.done = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.done = True


_JSON_HEAD = re.compile(
    r'\A\s*\{\s*(?:"[a-z_]{1,40}"\s*:\s*(?:-?\d+(?:\.\d+)?|"[^"\\\n]{0,200}")\s*,\s*){0,4}'
    r'"generator"\s*:\s*"diskmodel[ "]'
)
"""A JSON object whose `generator` is among its first five keys, after plain values only."""

_HTML_START = re.compile(r"\A\s*<!doctype html", re.IGNORECASE)

_COMMENT_HEAD = re.compile(r"\A# diskmodel [0-9][^\s:]*: ")
"""The first line of a CSV table, a calibrated scenario or a fitted catalog file diskmodel
wrote: `# diskmodel 0.1.0: <caption>`."""


def marked_as_ours(head: str) -> bool:
    """True if `head` (the start of a file) is the head of a file diskmodel wrote.

    HTML: a page whose own `<head>` holds the generator `<meta>` element. JSON: an object
    whose first keys include `"generator": "diskmodel ..."`. CSV and YAML (a CSV table, a
    calibrated scenario, a fitted catalog file): a first line
    `# diskmodel <version>: ...`. The mark quoted anywhere else
    (in a comment, a string, further down) does not count.
    """
    text = head.removeprefix("\ufeff")
    if _JSON_HEAD.match(text) or _COMMENT_HEAD.match(text):
        return True
    if not _HTML_START.match(text):
        return False
    reader = _HeadReader()
    try:
        reader.feed(text)
    except (AssertionError, ValueError):  # html.parser on a malformed declaration
        return False
    return reader.marked


def _read_head(fd: int) -> str:
    return os.read(fd, _HEAD_BYTES).decode("utf-8", errors="replace")


def is_diskmodel_output(path: Path) -> bool:
    """True if `path` is a regular file (not a link) that starts like one diskmodel wrote."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and marked_as_ours(_read_head(fd))
    except OSError:
        return False
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------ the checks


@dataclass(frozen=True)
class _Target:
    """A checked output path: what is there now (None: nothing) and the file's identity."""

    path: Path
    existing: os.stat_result | None

    @property
    def key(self) -> str:
        """One spelling per file: the real folder and the name (`r/x` and `./r/x` agree)."""
        return os.path.normcase(os.path.join(os.path.realpath(self.path.parent), self.path.name))


def _os_error(path: Path, exc: OSError) -> OutputError:
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


def _check(path: Path, force: bool) -> _Target:
    """Raise `OutputError` unless `path` may be written; `force` replaces foreign files."""
    name = path.name
    if len(os.fsencode(name)) > NAME_MAX_BYTES:
        raise _os_error(path, OSError(errno.ENAMETOOLONG, "File name too long"))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return _Target(path, None)
    except NotADirectoryError:
        raise OutputError(f"{path}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise _os_error(path, exc) from None
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
    return _Target(path, info)


def _same_file_is_ours(path: Path, info: os.stat_result) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return False
    try:
        now = os.fstat(fd)
        if _identity(now) != _identity(info) or not stat.S_ISREG(now.st_mode):
            return False
        return marked_as_ours(_read_head(fd))
    finally:
        os.close(fd)


def check_outputs(outputs: Sequence[Output], *, force: bool = False) -> list[_Target | None]:
    """Check every output before any is written: `OutputError` if one may not be.

    Also refuses two outputs to one file or both to standard output (fuzzing found `--out X
    --json X` exiting 0 with the JSON silently lost).
    """
    targets: list[_Target | None] = []
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


# ------------------------------------------------------------------------------ the writing


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _stage(target: _Target, text: str) -> str:
    """Write `text` to a new temporary file beside the target; return its path."""
    folder = target.path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".diskmodel-", suffix=".tmp", dir=folder)
    except FileExistsError:
        raise OutputError(f"{target.path}: a part of the path is a file, not a folder") from None
    except OSError as exc:
        raise _os_error(target.path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            # mkstemp makes the file private (0600); a report is for sharing, so give it the
            # permissions any new file would get under the user's umask.
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
    except BaseException as exc:
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _os_error(target.path, exc) from None
        raise
    return temp


_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK}


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    """What tells one file from another that took its place (an inode number is reused at
    once on some file systems: a link made after an unlink can have the file's number)."""
    return (info.st_dev, info.st_ino, info.st_mode, info.st_ctime_ns)


def _unchanged(target: _Target) -> None:
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
        now is None or _identity(now) != _identity(target.existing)
    ):
        raise OutputError(f"{path}: changed while the report was written; not replaced")


def _commit(target: _Target, temp: str) -> str | None:
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
    staged: list[tuple[_Target, str]] = []
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


def _put_in_place(staged: Sequence[tuple[_Target, str]]) -> None:
    """Move every staged file into place (the folders locked), each target first checked
    again to be what was first checked, or none: if one fails, those already in place are
    taken back (a new file removed, a replaced one restored)."""
    for target, _ in staged:
        _unchanged(target)
    placed: list[tuple[_Target, str | None]] = []
    try:
        for target, temp in staged:
            try:
                placed.append((target, _commit(target, temp)))
            except OSError as exc:
                raise _os_error(target.path, exc) from None
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
