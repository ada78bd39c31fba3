"""The columns of an interval file: their names and the spellings exports give them
(`ALIASES`), which headers name which column (`header_columns`), and how a cell is read (a
number as a spreadsheet may write it, a fraction's percentage, an ISO 8601 time), each mistake
one message naming the row and the column.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from diskmodel.errors import InputError

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
class Columns:
    """Where each known column is (`index`), its header as written where that is not its own
    name (`written`), and the fraction columns whose header says percent (`percent`)."""

    index: dict[str, int]
    written: dict[str, str]
    percent: frozenset[str]

    def label(self, name: str) -> str:
        """The column as a message names it: `read_fraction`, or `Read % (read_fraction)`."""
        written = self.written.get(name)
        return f"{clip(written)} ({name})" if written else name


def header_columns(header: Sequence[str], source: str) -> Columns:
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
                f"{source}: columns {clip(header[index[name]].strip())!r} and "
                f"{clip(cell.strip())!r} both give {name}; keep one"
            )
        index[name] = i
        if normal != name:
            written[name] = cell.strip()
        if name in FRACTIONS and re.search(r"(^|_)(pct|percent)($|_)", normal):
            percent.add(name)
    return Columns(index, written, frozenset(percent))


_NUMBER = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$")


def cell_number(
    text: str, where: str, column: str, label: str = "", percent: bool = False
) -> float:
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


def cell_time(text: str, where: str) -> dt.datetime:
    raw = text.strip().strip('"').strip()
    try:
        return dt.datetime.fromisoformat(raw)
    except ValueError:
        raise InputError(
            f"{where}, column time: {clip(raw)!r} is not an ISO 8601 time (e.g. 2026-11-02 14:15)"
        ) from None


def clip(text: str, limit: int = 60) -> str:
    """A cell quoted in a message: at most `limit` characters of it."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
