"""What each output flag names: the format it writes, and the file (`-` standard output, a
folder with the default name, the format's extension or none); `--csv`'s folder of tables.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.errors import OutputError

STDOUT = "-"
"""The output name that means standard output."""

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
