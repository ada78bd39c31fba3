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
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from diskmodel.errors import InputError
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
    "read_sequential_fraction",
    "write_sequential_fraction",
)
FRACTIONS = frozenset(
    {
        "read_fraction",
        "read_hit_ratio",
        "rank_utilization",
        "da_utilization",
        "host_port_utilization",
        "read_sequential_fraction",
        "write_sequential_fraction",
    }
)
DEFAULT_KIB = 4.0
_NUMBER = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$")


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


def _number(text: str, where: str, column: str, label: str = "", percent: bool = False) -> float:
    """The cell `text` of `column` (`label`: the header as written, for messages; `percent`:
    the header says its values are percentages)."""
    if percent:
        return _quirky_number(text, where, column, label, percent=True)
    try:
        value = float(text)  # a plain number: what almost every cell holds
    except ValueError:
        return _quirky_number(text, where, column, label)
    if not math.isfinite(value) or "_" in text:  # float() reads "inf", "nan" and "1_000"
        return _quirky_number(text, where, column, label)
    label = label or column
    if value < 0:
        raise InputError(f"{where}, column {label}: {text.strip()!r} must be a number >= 0")
    if value > 1 and column in FRACTIONS:
        hint = f" (did you mean {value / 100:g}?)" if value <= 100 else ""
        raise InputError(f"{where}, column {label}: {value:g} is above 1{hint}")
    return value


def _quirky_number(
    text: str, where: str, column: str, label: str = "", percent: bool = False
) -> float:
    """A number as a spreadsheet may write it (quoted, thousands separators, a percentage),
    or `InputError` naming the row and the column."""
    label = label or column
    raw = text.strip().strip('"').strip()
    percent = percent or raw.endswith("%")
    body = raw.removesuffix("%").strip()
    if not body or not _NUMBER.match(body) or body in {".", "+", "-"}:
        raise InputError(f"{where}, column {label}: {text.strip()!r} is not a number")
    value = float(body.replace(",", ""))
    if percent:
        if column not in FRACTIONS:
            raise InputError(f"{where}, column {label}: a percentage is only read for fractions")
        value /= 100.0
    if not math.isfinite(value) or value < 0:
        raise InputError(f"{where}, column {label}: {text.strip()!r} must be a number >= 0")
    if column in FRACTIONS and value > 1:
        if percent:
            raise InputError(f"{where}, column {label}: {100 * value:g}% is above 100%")
        hint = f" (did you mean {value / 100:g}?)" if value <= 100 else ""
        raise InputError(f"{where}, column {label}: {value:g} is above 1{hint}")
    return value


def _time(text: str, where: str) -> dt.datetime:
    raw = text.strip().strip('"').strip()
    try:
        return dt.datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(
            f"{where}, column time: {_clip(raw)!r} is not an ISO 8601 time (e.g. 2026-11-02 14:15)"
        ) from None


def _clip(text: str, limit: int = 60) -> str:
    """A cell quoted in a message: at most `limit` characters of it."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


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
    columns = _columns(first[1], source)
    missing = [c for c in REQUIRED if c not in columns.index]
    if missing:
        shown = ", ".join(_clip(h.strip()) for h in first[1][:20] if h.strip())
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
            raise InputError(f"{source}: scope {_clip(iv.scope)!r} appears twice at {iv.time}")
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


NUMBERS: tuple[str, ...] = ("io_rate", "read_fraction", "read_hit_ratio", "read_kib")
NUMBERS += ("write_kib", "response_ms", "capacity_gb", *MEASURED)
NUMBERS += ("read_sequential_fraction", "write_sequential_fraction")
"""The numeric columns, in `Interval`'s order after the time and the scope."""


MB_S = "mb_s"
"""Host MB/s (decimal megabytes): read where a file gives no transfer sizes, which it then
gives as their mean (MB/s over the I/O rate), for reads and writes alike."""

ALIASES = {
    "time": ("timestamp", "date_time", "datetime", "interval", "interval_start", "start_time"),
    "scope": ("volume_group", "workload", "application"),
    "io_rate": ("iops", "io_s", "ios", "io_per_s", "i_o_rate", "total_io_rate", "total_iops"),
    "read_fraction": ("read_ratio", "read_pct", "read_percent", "reads_pct", "read_io_pct"),
    "read_hit_ratio": ("read_hit_pct", "read_hits_pct", "read_hit_percent", "read_cache_hit_pct"),
    "read_kib": ("read_kb", "read_size_kib", "read_size_kb", "read_transfer_size_kb"),
    "write_kib": ("write_kb", "write_size_kib", "write_size_kb", "write_transfer_size_kb"),
    "response_ms": ("response_time_ms", "response_time", "resp_time_ms", "rt_ms", "latency_ms"),
    "read_response_ms": ("read_response_time_ms", "read_rt_ms", "read_latency_ms"),
    "write_response_ms": ("write_response_time_ms", "write_rt_ms", "write_latency_ms"),
    "rank_utilization": ("rank_util_pct", "rank_utilization_pct", "rank_busy_pct"),
    "backend_iops": ("back_end_iops", "backend_io_rate", "disk_iops"),
    "da_utilization": ("da_util_pct", "da_utilization_pct", "device_adapter_utilization"),
    "host_port_utilization": ("port_utilization", "port_util_pct", "host_port_util_pct"),
    "read_sequential_fraction": ("sequential_read_pct", "seq_read_pct", "read_sequential_pct"),
    "write_sequential_fraction": ("sequential_write_pct", "seq_write_pct", "write_sequential_pct"),
    MB_S: ("mbs", "mb_sec", "mb_per_s", "mbytes_s", "throughput_mb_s"),
}
"""The spellings read for each column besides its own name, after `_normal` (lower case, `%`
as `pct`, anything not a letter or digit as one `_`: `IO Rate` is `io_rate`, `MB/s` is `mb_s`,
`Read %` is `read_pct`, `Response Time (ms)` is `response_time_ms`). A header that says its
values are percentages (`%`, `pct`, `percent`) of a fraction column is read as such: 70 is
0.70."""

_CANONICAL = {
    **{name: name for name in (*REQUIRED, *OPTIONAL, MB_S)},
    **{alias: name for name, aliases in ALIASES.items() for alias in aliases},
}


def _normal(header: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", header.strip().lower().replace("%", " pct ")).strip("_")


@dataclass(frozen=True)
class _Columns:
    """Where each known column is (`index`), its header as written where that is not its own
    name (`written`), and the fraction columns whose header says percent (`percent`)."""

    index: dict[str, int]
    written: dict[str, str]
    percent: frozenset[str]

    def label(self, name: str) -> str:
        """The column as a message names it: `read_fraction`, or `Read % (read_fraction)`."""
        written = self.written.get(name)
        return f"{_clip(written)} ({name})" if written else name


def _columns(header: Sequence[str], source: str) -> _Columns:
    """The known columns of a header row (`ALIASES`), or `InputError` where two give one."""
    index: dict[str, int] = {}
    written: dict[str, str] = {}
    percent = set()
    for i, cell in enumerate(header):
        normal = _normal(cell)
        name = _CANONICAL.get(normal)
        if name is None:
            continue  # a column this file has and calibration does not read
        if name in index:
            raise InputError(
                f"{source}: columns {_clip(header[index[name]].strip())!r} and "
                f"{_clip(cell.strip())!r} both give {name}; keep one"
            )
        index[name] = i
        if normal != name:
            written[name] = cell.strip()
        if name in FRACTIONS and re.search(r"(^|_)(pct|percent)($|_)", normal):
            percent.add(name)
    return _Columns(index, written, frozenset(percent))


def _interval(row: Sequence[str], columns: _Columns, where: str, shared: _Shared) -> Interval:
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
            values[k] = _number(raw, where, name, columns.label(name), name in columns.percent)
        elif name in REQUIRED:
            raise InputError(f"{where}, column {columns.label(name)}: empty")
    io_rate, read_fraction, hit, read_kib, write_kib, *rest = values
    if read_kib is None and write_kib is None and MB_S in index and row[index[MB_S]].strip():
        # Only the throughput: every transfer taken as its mean size, MB/s over the rate.
        mb_s = _number(row[index[MB_S]], where, MB_S, columns.label(MB_S))
        if io_rate and mb_s > 0:
            read_kib = write_kib = mb_s * 1e6 / 1024 / io_rate
    when = row[index["time"]]
    time = shared.times.get(when)
    if time is None:
        time = shared.times[when] = _time(when, where)
    column = index.get("scope")
    name = (row[column].strip().strip('"') if column is not None else "") or "system"
    scope = shared.scopes.get(name)
    if scope is None:
        if len(name) > MAX_SCOPE_CHARS:
            raise InputError(
                f"{where}, column scope: {_clip(name)!r} is {len(name):,} characters long; a "
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
