"""The report's tables as CSV files (`--csv DIR`): one file per table, for a spreadsheet.

Each file is the table the report shows, from the same view records (`report.view.Table`):
a first line `# diskmodel <version>: <caption>` (the generator mark that lets a later run
replace the file, and what the table is), then the column headings and one line per row.
A table that puts each configuration's name above its rows gets a first `configuration`
column instead, so that every line stands on its own. Numbers are written as the report
shows them but without thousands separators (`13500`, `4.1%`, `0.626`), text as it is;
the units are in the headings. Files are UTF-8 with `\\n` line ends, quoted as Python's csv
module quotes (RFC 4180).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from diskmodel import __version__
from diskmodel.report.view import Cell, Report, Table

MARK = "# diskmodel"
"""How a CSV file diskmodel wrote begins (`output.marked_as_ours`)."""

_GROUPED_NUMBER = re.compile(r"[<+-]?\d{1,3}(,\d{3})+(\.\d+)?%?")
"""A number written with thousands separators, as the report shows counts and rates."""


def report_tables(report: Report) -> list[Table]:
    """Every table of the report, in page order: results, calibration, inputs, appendix."""
    calibration = report.calibration.tables if report.calibration is not None else ()
    return [*report.tables, *calibration, *report.inputs, *report.appendix]


def csv_files(tables: Iterable[Table]) -> list[tuple[str, str]]:
    """(file stem, CSV text) of each table: its anchor (`results`, `service-level`, ...)."""
    return [(t.key, table_csv(t)) for t in tables]


def table_csv(table: Table) -> str:
    """One table as CSV text (module docstring)."""
    buffer = io.StringIO()
    buffer.write(f"{MARK} {__version__}: {_one_line(table.caption)}\n")
    writer = csv.writer(buffer, lineterminator="\n")
    grouped = any(row.group for row in table.rows)
    writer.writerow([*(["configuration"] if grouped else []), *table.columns])
    group = ""
    for row in table.rows:
        if row.group:
            group = row.header
            continue
        writer.writerow([*([group] if grouped else []), row.header, *_cells(row.cells)])
    return buffer.getvalue()


def _cells(cells: Sequence[Cell]) -> list[str]:
    return [
        c.text.replace(",", "") if c.kind == "num" and _GROUPED_NUMBER.fullmatch(c.text) else c.text
        for c in cells
    ]


def _one_line(text: str) -> str:
    return " ".join(text.split())
