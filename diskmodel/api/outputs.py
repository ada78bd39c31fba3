"""The result files of a command: where each goes, checked before the work, and written all
or none (`diskmodel.output` holds the rules: docs/SECURITY.md, "What it writes")."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from diskmodel.output import Output

REPORTS = f"reports{os.sep}"
"""Where `run` and `compare` write the HTML report when `--out` is not given."""


class Planned(NamedTuple):
    """One result a command will write: its kind ("json" or "html") and its file (`None` for
    standard output)."""

    kind: str
    path: Path | None


def plan_outputs(
    out: str | None, json: str | None, stem: str, *, default_out: str | None = REPORTS
) -> list[Planned]:
    """The JSON result (when `json` is given) and the HTML report (`out`, else `default_out`;
    none when both are None) a command writes, `-` being standard output; `stem` names the
    file inside a folder. An `OutputError` refuses a bad name, or two results for standard
    output, before any work is done."""
    from diskmodel.errors import OutputError
    from diskmodel.output import HTML, JSON, output_path

    html_raw = out if out is not None else default_out
    planned: list[Planned] = []
    if json is not None:
        planned.append(Planned("json", output_path(json, JSON, stem)))
    if html_raw is not None:
        planned.append(Planned("html", output_path(html_raw, HTML, stem)))
    if sum(1 for p in planned if p.path is None) > 1:
        raise OutputError("--out - and --json -: only one result can go to standard output")
    return planned


def csv_paths(folder: str, stems: Sequence[str]) -> list[Path]:
    """The files `--csv FOLDER` writes, one `<stem>.csv` per table (`OutputError` when FOLDER
    is a file or `-`)."""
    from diskmodel.output import csv_paths as paths

    return paths(folder, stems)


def write_outputs(outputs: Sequence[Output], *, force: bool, stdout: Callable[[str], None]) -> None:
    """Write every output or none (`diskmodel.output.write_outputs`): an existing file is
    replaced only when diskmodel wrote it or with `force`; `stdout` writes the one whose path
    is None."""
    from diskmodel.output import write_outputs as write

    write(outputs, force=force, stdout=stdout)
