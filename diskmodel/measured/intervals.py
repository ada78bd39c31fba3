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
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.errors import InputError
from diskmodel.yamlio import read_input_text

MAX_FILE_BYTES = 64_000_000
"""A week at one-minute intervals for a thousand volumes is about 10 million rows' worth of
bytes at the outside; 64 MB bounds what is read."""

REQUIRED = ("time", "io_rate", "read_fraction")
MEASURED = (
    "rank_utilization",
    "read_response_ms",
    "write_response_ms",
    "backend_iops",
    "da_utilization",
    "host_port_utilization",
)
"""The optional measured figures beyond the response time (no default: None when absent)."""
OPTIONAL = (
    "scope",
    "read_hit_ratio",
    "read_kib",
    "write_kib",
    "response_ms",
    "capacity_gb",
    *MEASURED,
)
FRACTIONS = frozenset(
    {
        "read_fraction",
        "read_hit_ratio",
        "rank_utilization",
        "da_utilization",
        "host_port_utilization",
    }
)
DEFAULT_KIB = 4.0
_NUMBER = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$")


@dataclass(frozen=True)
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

    @property
    def mb_s(self) -> float:
        """Host MB/s (decimal megabytes) the interval moved."""
        kib = self.read_fraction * self.read_kib + (1.0 - self.read_fraction) * self.write_kib
        return self.io_rate * kib * 1024 / 1e6


def _number(text: str, where: str, column: str) -> float:
    raw = text.strip().strip('"').strip()
    percent = raw.endswith("%")
    body = raw.removesuffix("%").strip()
    if not body or not _NUMBER.match(body) or body in {".", "+", "-"}:
        raise InputError(f"{where}, column {column}: {text.strip()!r} is not a number")
    value = float(body.replace(",", ""))
    if percent:
        if column not in FRACTIONS:
            raise InputError(f"{where}, column {column}: a percentage is only read for fractions")
        value /= 100.0
    if not math.isfinite(value) or value < 0:
        raise InputError(f"{where}, column {column}: {text.strip()!r} must be a number >= 0")
    if column in FRACTIONS and value > 1:
        hint = f" (did you mean {value / 100:g}?)" if value <= 100 else ""
        raise InputError(f"{where}, column {column}: {value:g} is above 1{hint}")
    return value


def _time(text: str, where: str) -> dt.datetime:
    raw = text.strip().strip('"').strip()
    try:
        return dt.datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(
            f"{where}, column time: {raw!r} is not an ISO 8601 time (e.g. 2026-11-02 14:15)"
        ) from None


def parse_intervals(text: str, source: str) -> list[Interval]:
    """The intervals of a CSV's text (module docstring); `source` names it in messages."""
    # Row numbers as a spreadsheet shows them: blank rows are skipped but counted.
    numbered = [
        (n, r)
        for n, r in enumerate(csv.reader(text.splitlines()), start=1)
        if any(cell.strip() for cell in r)
    ]
    if not numbered:
        raise InputError(f"{source}: no header row (columns: {', '.join(REQUIRED)}, ...)")
    header = [h.strip().lower() for h in numbered[0][1]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise InputError(
            f"{source}: missing column(s) {', '.join(missing)} (the header has: "
            f"{', '.join(h for h in header if h) or 'nothing'})"
        )
    index = {name: header.index(name) for name in (*REQUIRED, *OPTIONAL) if name in header}
    out = []
    for number, row in numbered[1:]:
        out.append(_interval(row, index, f"{source}: row {number}"))
    if not out:
        raise InputError(f"{source}: a header but no intervals")
    seen: set[tuple[dt.datetime, str]] = set()
    for iv in out:
        key = (iv.time, iv.scope)
        if key in seen:
            raise InputError(f"{source}: scope {iv.scope!r} appears twice at {iv.time}")
        seen.add(key)
    return out


def _interval(row: Sequence[str], index: dict[str, int], where: str) -> Interval:
    """One data row (`index`: the column of each known header)."""

    def cell(name: str) -> str | None:
        i = index.get(name)
        if i is None:
            return None
        if i >= len(row):
            raise InputError(f"{where}: the row has {len(row)} cells, no {name}")
        return row[i]

    def value(name: str, default: float | None = None) -> float | None:
        raw = cell(name)
        if raw is None or not raw.strip():
            if name in REQUIRED:
                raise InputError(f"{where}, column {name}: empty")
            return default
        return _number(raw, where, name)

    return Interval(
        time=_time(cell("time") or "", where),
        scope=(cell("scope") or "").strip().strip('"') or "system",
        io_rate=value("io_rate") or 0.0,
        read_fraction=value("read_fraction") or 0.0,
        read_hit_ratio=value("read_hit_ratio"),
        read_kib=value("read_kib", DEFAULT_KIB) or DEFAULT_KIB,
        write_kib=value("write_kib", DEFAULT_KIB) or DEFAULT_KIB,
        response_ms=value("response_ms"),
        capacity_gb=value("capacity_gb"),
        **{name: value(name) for name in MEASURED},
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
                    for name in MEASURED
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
