"""Measured interval data: a CSV of what a running system did, interval by interval.

One row per interval and scope (the whole system, a pool, a volume group: whatever the export
breaks the load down by). Columns, by header name (case and surrounding spaces ignored; the
order is free; unknown columns are ignored so an export can be read as it is):

| column | unit | required | meaning |
|---|---|---|---|
| `time` | ISO 8601 (`2026-11-02 14:15`, `2026-11-02T14:15:00`) | yes | the interval's start |
| `scope` | text | no (default `system`) | what the row measures; one workload per scope |
| `io_rate` | I/O per second | yes | host I/O rate over the interval |
| `read_fraction` | 0 to 1 | yes | reads as a fraction of all I/O |
| `read_hit_ratio` | 0 to 1 | no | reads answered from cache (unknown: a range to calibrate) |
| `read_kib`, `write_kib` | KiB | no (4) | mean transfer sizes |
| `response_ms` | ms | no | measured mean response time |
| `capacity_gb` | GB | no | the scope's data (else `--capacity-gb`) |
| `rank_utilization` | 0 to 1 | no | the scope's pool's mean rank (drive) busy fraction |
| `read_response_ms`, `write_response_ms` | ms | no | measured mean read and write response times |
| `backend_iops` | disk operations per second | no | the scope's pool's drives' operations |
| `da_utilization` | 0 to 1 | no | the system's mean device adapter (DA pair) busy fraction |
| `host_port_utilization` | 0 to 1 | no | the system's mean host port busy fraction |
| `read_sequential_fraction` | 0 to 1 | no | the share of reads that are sequential |
| `write_sequential_fraction` | 0 to 1 | no | the share of writes that are sequential |

`rank_utilization` is what a performance tool reports as the utilisation of the ranks holding
the scope's data, and `backend_iops` the operations those ranks' drives did (stages, destage
reads and writes, prefetches); both belong to the pool, so a pool's figure is read once per
interval however many of its scopes carry it, and the DA and host-port utilisations once per
interval for the system. Calibration fits every one of them it is given beside the response
times (`diskmodel.measured.calibrate.FIGURES`).

Tolerated, as spreadsheet exports write them: a byte-order mark, quoted numbers, thousands
separators (`"12,500"`), a trailing `%` on a fraction column (`70%` is 0.70), blank rows and
spaces. Anything else is one message naming the file, the row (as a spreadsheet numbers it,
the header being row 1) and the column.

The columns, the header spellings read for each and how a cell is read are in
`measured.columns`; here the rows, the intervals they make and the file written back.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from diskmodel.errors import InputError
from diskmodel.measured.columns import (
    MB_S,
    MEASURED,
    NUMBERS,
    OPTIONAL,
    REQUIRED,
    Columns,
    cell_number,
    cell_time,
    clip,
    header_columns,
)
from diskmodel.yamlio import read_input_text

MAX_FILE_BYTES = 64_000_000
"""64 MB bounds what is read (a year of 15-minute intervals for 64 scopes with every column
is about 200 MB; an export for sizing is a week or a month)."""

MAX_ROWS = 500_000
"""Rows of an interval file at most, counted (as lines) before any is parsed: a week of
one-minute intervals for 49 scopes, a month of 5-minute intervals for 57, or a year of
15-minute intervals for 14. A 58 MB file of 2 million short rows took 27 s of CPU and 1.9 GB to
read before this bound (issue 33 item 5); one of 500,000 rows of every column takes about 5 s
and 390 MB (docs/SECURITY.md)."""

MAX_SCOPE_CHARS = 80
"""The longest scope: a scope becomes a workload, and this is a workload name's bound
(`scenario.values.MAX_NAME_CHARS`, not imported: it would load the scenario's models into
`diskmodel import`; a test keeps the two equal)."""

DEFAULT_KIB = 4.0


@dataclass(frozen=True, slots=True)
class Interval:
    """One scope over one interval, as measured."""

    time: dt.datetime
    scope: str
    io_rate: float
    read_fraction: float
    read_hit_ratio: float | None  # None: not measured
    read_kib: float
    write_kib: float
    response_ms: float | None
    capacity_gb: float | None
    rank_utilization: float | None = None  # None: not measured (so every field below)
    read_response_ms: float | None = None
    write_response_ms: float | None = None
    backend_iops: float | None = None
    da_utilization: float | None = None
    host_port_utilization: float | None = None
    read_sequential_fraction: float | None = None  # None: not measured (the scenario's holds)
    write_sequential_fraction: float | None = None

    @property
    def mb_s(self) -> float:
        """Host MB/s (decimal megabytes) the interval moved."""
        kib = self.read_fraction * self.read_kib + (1.0 - self.read_fraction) * self.write_kib
        return self.io_rate * kib * 1024 / 1e6


def _rows(text: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """(row number as a spreadsheet shows it, cells) of every row that is not blank (blank
    rows are skipped but counted), read one at a time; a row that is not CSV (a NUL byte, a
    cell over the csv module's 131,072 characters) is one message naming it."""
    reader = csv.reader(io.StringIO(text))
    number = 0
    while True:
        number += 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"{source}: row {number}: not CSV ({exc})") from None
        if "".join(row).strip():
            yield number, row


def parse_intervals(text: str, source: str) -> list[Interval]:
    """The intervals of a CSV's text (module docstring); `source` names it in messages."""
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_ROWS + 1:
        raise InputError(
            f"{source}: {lines:,} lines; an interval file holds at most {MAX_ROWS:,} rows after "
            "its header (a week of one-minute intervals for 49 scopes); export a shorter "
            "period, longer intervals or fewer scopes"
        )
    rows = _rows(text, source)
    first = next(rows, None)
    if first is None:
        raise InputError(f"{source}: no header row (columns: {', '.join(REQUIRED)}, ...)")
    columns = header_columns(first[1], source)
    missing = [c for c in REQUIRED if c not in columns.index]
    if missing:
        shown = ", ".join(clip(h.strip()) for h in first[1][:20] if h.strip())
        raise InputError(
            f"{source}: missing column(s) {', '.join(missing)} (the header has: "
            f"{shown or 'nothing'}; docs/measured.md lists the spellings read)"
        )
    out = []
    shared = _Shared()
    seen: set[tuple[dt.datetime, str]] = set()
    offset: tuple[bool, int] | None = None  # (the first time has a UTC offset, its row)
    for number, row in rows:
        where = f"{source}: row {number}"
        iv = _interval(row, columns, where, shared)
        aware = iv.time.tzinfo is not None
        if offset is None:
            offset = (aware, number)
        elif aware != offset[0]:
            has, lacks = ("has a", "has none") if aware else ("has no", "has one")
            raise InputError(
                f"{where}, column time: {iv.time.isoformat(sep=' ')} {has} UTC offset, "
                f"but row {offset[1]}'s time {lacks}; give every time with its offset "
                "(+01:00) or none"
            )
        key = (iv.time, iv.scope)
        if key in seen:
            raise InputError(f"{source}: scope {clip(iv.scope)!r} appears twice at {iv.time}")
        seen.add(key)
        out.append(iv)
    if not out:
        raise InputError(f"{source}: a header but no intervals")
    return out


@dataclass
class _Shared:
    """The times and scopes read so far, by their text: the rows of one interval, or of one
    scope, hold one object for it (a fifth less memory for a large file)."""

    times: dict[str, dt.datetime] = field(default_factory=dict)
    scopes: dict[str, str] = field(default_factory=dict)


def _interval(row: Sequence[str], columns: Columns, where: str, shared: _Shared) -> Interval:
    """One data row (`columns`: where each known column is); `where` names it."""
    index = columns.index
    cells = len(row)
    if cells <= max(index.values()):
        missing = next(name for name, i in index.items() if i >= cells)
        raise InputError(f"{where}: the row has {cells} cells, no {columns.label(missing)}")
    values: list[float | None] = [None] * len(NUMBERS)
    for k, name in enumerate(NUMBERS):
        i = index.get(name)
        if i is None:
            continue
        raw = row[i]
        if raw.strip():
            values[k] = cell_number(raw, where, name, columns.label(name), name in columns.percent)
        elif name in REQUIRED:
            raise InputError(f"{where}, column {columns.label(name)}: empty")
    io_rate, read_fraction, hit, read_kib, write_kib, *rest = values
    if read_kib is None and write_kib is None and MB_S in index and row[index[MB_S]].strip():
        # Only the throughput: every transfer taken as its mean size, MB/s over the rate.
        mb_s = cell_number(row[index[MB_S]], where, MB_S, columns.label(MB_S))
        if io_rate and mb_s > 0:
            read_kib = write_kib = mb_s * 1e6 / 1024 / io_rate
    when = row[index["time"]]
    time = shared.times.get(when)
    if time is None:
        time = shared.times[when] = cell_time(when, where)
    column = index.get("scope")
    name = (row[column].strip().strip('"') if column is not None else "") or "system"
    scope = shared.scopes.get(name)
    if scope is None:
        if len(name) > MAX_SCOPE_CHARS:
            raise InputError(
                f"{where}, column scope: {clip(name)!r} is {len(name):,} characters long; a "
                f"scope becomes a workload, whose name has at most {MAX_SCOPE_CHARS}"
            )
        scope = shared.scopes[name] = name
    return Interval(
        time,
        scope,
        io_rate or 0.0,
        read_fraction or 0.0,
        hit,
        read_kib or DEFAULT_KIB,
        write_kib or DEFAULT_KIB,
        *rest,
    )


def load_intervals(path: Path) -> list[Interval]:
    """Read and parse an interval CSV (a regular UTF-8 file, BOM dropped)."""
    return parse_intervals(read_input_text(path, MAX_FILE_BYTES, "interval"), str(path))


EXPORT_COLUMNS = (
    "time",
    "scope",
    "io_rate",
    "read_fraction",
    *(c for c in OPTIONAL if c != "scope"),
)
"""Every column, as `format_intervals` writes them (the scope beside the time)."""


def format_intervals(intervals: Iterable[Interval]) -> str:
    """Intervals as the CSV this module reads (every column, numbers written exactly:
    `parse_intervals` gives the same intervals back)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for iv in intervals:
        writer.writerow(
            [
                iv.time.isoformat(sep=" "),
                iv.scope,
                repr(iv.io_rate),
                repr(iv.read_fraction),
                "" if iv.read_hit_ratio is None else repr(iv.read_hit_ratio),
                repr(iv.read_kib),
                repr(iv.write_kib),
                "" if iv.response_ms is None else repr(iv.response_ms),
                "" if iv.capacity_gb is None else repr(iv.capacity_gb),
                *(
                    "" if getattr(iv, name) is None else repr(getattr(iv, name))
                    for name in (*MEASURED, "read_sequential_fraction", "write_sequential_fraction")
                ),
            ]
        )
    return out.getvalue()


def by_time(intervals: Iterable[Interval]) -> dict[dt.datetime, list[Interval]]:
    """The intervals grouped by time, in time order."""
    out: dict[dt.datetime, list[Interval]] = {}
    for iv in sorted(intervals, key=lambda i: (i.time, i.scope)):
        out.setdefault(iv.time, []).append(iv)
    return out
