"""RMF measurements of z/OS workloads: a CSV of device-activity and cache fields per interval
and per volume group or storage group, read (`load_rmf`), recognised (`is_rmf_csv`) and the
intervals a calibration or an import asks for chosen (`select_rmf`).

One row per interval and group. Columns, by header name (case and surrounding spaces ignored,
order free, unknown columns ignored), each the figure RMF reports for the group over the
interval (z/OS RMF Report Analysis SC34-2665: the Direct Access Device Activity report and the
Cache Subsystem Activity report):

| column | unit | required | RMF field |
|---|---|---|---|
| `time` | ISO 8601 | yes | the interval's start |
| `group` | text | yes | the storage group or volume group (one workload each) |
| `io_rate` | I/O per second | yes | DEVICE ACTIVITY RATE, summed over the group's volumes |
| `iosq_ms` | ms | yes | AVG IOSQ TIME |
| `pend_ms` | ms | yes | AVG PEND TIME |
| `disc_ms` | ms | yes | AVG DISC TIME |
| `conn_ms` | ms | yes | AVG CONN TIME |
| `read_fraction` | 0 to 1 | yes | READ % of the cache report (reads of all I/O) |
| `read_hit_ratio` | 0 to 1 | yes | READ H/R |
| `write_hit_ratio` | 0 to 1 | no (1) | WRITE H/R (DASD fast write: 1 unless NVS was full) |
| `transfer_kib` | KiB | no (4) | bytes per I/O (MB/s over the rate) |
| `volumes` | count | no | base volumes of the group |
| `lcus` | names, `;` between | no | the LCUs its volumes are in |
| `capacity_gb` | GB | no | the group's data |

RMF's own headings are read as well (`RMF_HEADERS`: STORAGE GROUP, DEVICE ACTIVITY RATE, AVG
IOSQ TIME, AVG PEND TIME, AVG DISC TIME, AVG CONN TIME, READ % in percent, READ H/R, WRITE
H/R), so an export can keep them. The mean response time is their sum (AVG RESP TIME = IOSQ +
PEND + DISC + CONN). Numbers may be quoted or carry thousands separators; a fraction may be
written as a percentage (`75%`).
A mistake is one `InputError` naming the file, the row (the header is row 1) and the column.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.errors import InputError

RMF_COMPONENTS = ("iosq_ms", "pend_ms", "disc_ms", "conn_ms")
"""The response-time components every RMF row gives, in the order of an I/O's life."""
REQUIRED = ("time", "group", "io_rate", *RMF_COMPONENTS, "read_fraction", "read_hit_ratio")
OPTIONAL = ("write_hit_ratio", "transfer_kib", "volumes", "lcus", "capacity_gb")
FRACTIONS = frozenset({"read_fraction", "read_hit_ratio", "write_hit_ratio"})
MAX_RMF_BYTES = 20_000_000
"""An RMF CSV is read no further than this (a week of 15-minute intervals for 100 groups is
about 2 MB)."""


@dataclass(frozen=True)
class RmfGroup:
    """One group's figures over one interval."""

    group: str
    io_rate: float
    iosq_ms: float
    pend_ms: float
    disc_ms: float
    conn_ms: float
    read_fraction: float
    read_hit_ratio: float
    write_hit_ratio: float = 1.0
    transfer_kib: float = 4.0
    volumes: int | None = None
    lcus: tuple[str, ...] = ()
    capacity_gb: float | None = None

    @property
    def response_ms(self) -> float:
        """AVG RESP TIME: IOSQ + PEND + DISC + CONN."""
        return self.iosq_ms + self.pend_ms + self.disc_ms + self.conn_ms

    def component(self, name: str) -> float:
        """One of `RMF_COMPONENTS` by name."""
        return float(getattr(self, name))


@dataclass(frozen=True)
class RmfInterval:
    """Every group's figures over one interval."""

    time: dt.datetime
    groups: tuple[RmfGroup, ...]

    @property
    def io_rate(self) -> float:
        return sum(g.io_rate for g in self.groups)

    @property
    def response_ms(self) -> float:
        """The groups' response times weighted by their rates."""
        total = self.io_rate
        return sum(g.io_rate * g.response_ms for g in self.groups) / total if total > 0 else 0.0

    def label(self) -> str:
        return self.time.isoformat(sep=" ", timespec="minutes")


RMF_HEADERS = {
    "storage group": "group",
    "device activity rate": "io_rate",
    "avg iosq time": "iosq_ms",
    "avg pend time": "pend_ms",
    "avg disc time": "disc_ms",
    "avg conn time": "conn_ms",
    "read %": "read_fraction",
    "read h/r": "read_hit_ratio",
    "write h/r": "write_hit_ratio",
}
"""RMF's own headings (the Direct Access Device Activity and Cache Subsystem Activity reports,
as an export copies them) read as the columns above; times in ms as RMF reports them."""
PERCENT_HEADERS = frozenset({"read %"})
"""RMF headings whose values are percentages (READ % 75.0 is a read fraction of 0.75)."""


def _normal(cell: str) -> str:
    return " ".join(cell.strip().lstrip("\ufeff").strip().lower().split())


def _header(row: Sequence[str]) -> dict[str, int]:
    """Column name (ours, RMF's headings read as ours) to its index."""
    out: dict[str, int] = {}
    for i, cell in enumerate(row):
        name = _normal(cell)
        out[RMF_HEADERS.get(name, name)] = i
    return out


def _percent_columns(row: Sequence[str]) -> frozenset[str]:
    """Our columns whose header is an RMF heading given in percent."""
    return frozenset(RMF_HEADERS[_normal(c)] for c in row if _normal(c) in PERCENT_HEADERS)


def is_rmf_csv(path: Path) -> bool:
    """Whether the CSV's header names the RMF components (any file that cannot be read as one
    is not: the interval reader then says why)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            first = f.readline(100_000)
    except (OSError, UnicodeDecodeError):
        return False
    header = _header(next(csv.reader([first]), []))
    return all(c in header for c in RMF_COMPONENTS)


def _number(text: str, where: str, column: str, percent: bool = False) -> float:
    raw = text.strip().strip('"').strip()
    percent = percent or raw.endswith("%")
    body = raw.removesuffix("%").replace(",", "").strip()
    try:
        value = float(body)
    except ValueError:
        raise InputError(f"{where}, column {column}: {raw[:40]!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise InputError(f"{where}, column {column}: {raw[:40]!r} must be a number >= 0")
    if percent:
        if column not in FRACTIONS:
            raise InputError(f"{where}, column {column}: a percentage is only read for fractions")
        value /= 100.0
    if column in FRACTIONS and value > 1:
        hint = f" (did you mean {value / 100:g}?)" if value <= 100 else ""
        raise InputError(f"{where}, column {column}: {value:g} is above 1{hint}")
    return value


def parse_rmf(text: str, source: str) -> list[RmfInterval]:
    """The intervals of an RMF CSV's text, in time order, each with its groups in file order."""
    reader = csv.reader(io.StringIO(text))
    rows = [(n, row) for n, row in enumerate(reader, start=1) if "".join(row).strip()]
    if not rows:
        raise InputError(f"{source}: empty; an RMF CSV has a header row ({', '.join(REQUIRED)})")
    header = _header(rows[0][1])
    in_percent = _percent_columns(rows[0][1])
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise InputError(
            f"{source}: row 1: missing column(s) {', '.join(missing)} (an RMF CSV has "
            f"{', '.join(REQUIRED)}; optional {', '.join(OPTIONAL)})"
        )
    by_time: dict[dt.datetime, list[RmfGroup]] = {}
    for number, row in rows[1:]:
        where = f"{source}: row {number}"

        def cell(column: str, row: Sequence[str] = row, where: str = where) -> str | None:
            i = header.get(column)
            if i is None or i >= len(row) or not row[i].strip():
                if column in REQUIRED:
                    raise InputError(f"{where}, column {column}: empty")
                return None
            return row[i]

        try:
            time = dt.datetime.fromisoformat((cell("time") or "").strip())
        except ValueError:
            raise InputError(
                f"{where}, column time: not an ISO 8601 time (e.g. 2026-11-02 14:15)"
            ) from None
        numbers = {
            c: _number(value, where, c, c in in_percent)
            for c in ("io_rate", *RMF_COMPONENTS, "read_fraction", "read_hit_ratio")
            if (value := cell(c)) is not None
        }
        optional = {
            c: _number(value, where, c, c in in_percent)
            for c in ("write_hit_ratio", "transfer_kib", "capacity_gb")
            if (value := cell(c)) is not None
        }
        if optional.get("transfer_kib", 4.0) <= 0:
            raise InputError(f"{where}, column transfer_kib: must be above 0")
        volumes_text = cell("volumes")
        volumes = None
        if volumes_text is not None:
            count = _number(volumes_text, where, "volumes")
            if count < 1 or count != int(count):
                raise InputError(f"{where}, column volumes: a whole number of volumes, >= 1")
            volumes = int(count)
        lcus = tuple(n.strip() for n in (cell("lcus") or "").split(";") if n.strip())
        group = RmfGroup(
            group=(cell("group") or "").strip(),
            volumes=volumes,
            lcus=lcus,
            **numbers,
            **optional,
        )
        groups = by_time.setdefault(time, [])
        if any(g.group == group.group for g in groups):
            raise InputError(f"{where}: group {group.group!r} at {time} is given twice")
        groups.append(group)
    if not by_time:
        raise InputError(f"{source}: a header and no intervals")
    return [RmfInterval(t, tuple(by_time[t])) for t in sorted(by_time)]


def load_rmf(path: Path) -> list[RmfInterval]:
    """The intervals of the RMF CSV `path` (`parse_rmf`); a missing or unreadable file, or one
    larger than `MAX_RMF_BYTES`, is one `InputError`."""
    try:
        size = path.stat().st_size
        if size > MAX_RMF_BYTES:
            raise InputError(f"{path}: {size:,} bytes; an RMF CSV is read up to {MAX_RMF_BYTES:,}")
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    return parse_rmf(text, str(path))


def select_rmf(path: Path, peaks: Sequence[str]) -> list[RmfInterval]:
    """The intervals `peaks` name, in that order: `io` (the highest total rate), `response`
    (the highest rate-weighted response time), `all`, or an ISO time."""
    intervals = load_rmf(path)
    return pick(intervals, peaks, str(path))


def pick(intervals: Sequence[RmfInterval], peaks: Sequence[str], source: str) -> list[RmfInterval]:
    """`select_rmf` on intervals already read."""
    out: list[RmfInterval] = []
    for peak in peaks:
        if peak == "io":
            chosen = [max(intervals, key=lambda i: i.io_rate)]
        elif peak == "response":
            chosen = [max(intervals, key=lambda i: i.response_ms)]
        elif peak == "all":
            chosen = list(intervals)
        else:
            try:
                time = dt.datetime.fromisoformat(peak)
            except ValueError:
                raise InputError(
                    f"--peak {peak!r}: io, response, all or an ISO time of {source}"
                ) from None
            chosen = [i for i in intervals if i.time == time]
            if not chosen:
                raise InputError(f"--peak {peak}: no interval of {source} starts then")
        out += [c for c in chosen if c not in out]
    return out
