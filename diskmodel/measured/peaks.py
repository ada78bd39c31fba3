"""Choosing the intervals that matter and turning them into a scenario's workloads.

A planner sizes for the peaks: the interval with the most I/O, the most MB/s, the worst
response time, or a named time. The first chosen interval becomes the scenario's workloads
(one per scope); each further one an alternative under `analyses.compare` that sets the
workloads to that interval's load, so every result, table and chart shows them side by side.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML

from diskmodel.errors import InputError
from diskmodel.measured.intervals import Interval, by_time

PEAKS = ("io", "mbs", "response")
"""Named peaks: the most host I/O, the most MB/s, the longest I/O-weighted response time."""
UNKNOWN_HIT_RATIO = [0.0, 0.95]
"""A read hit ratio not measured: from no hits to the most a cache gives random reads."""
SEQUENTIAL = ("read_sequential_fraction", "write_sequential_fraction")
"""The sequential fractions, written where the intervals measured them."""
MAX_SCOPES = 64
"""Scopes of one interval at most: each becomes a workload, and a scenario holds at most 64
(the schema's bound; a test keeps the two equal)."""


@dataclass(frozen=True)
class Selection:
    """One chosen interval: why (`io`, `mbs`, `response` or the time asked for), when, and
    its rows (one per scope)."""

    reason: str
    time: dt.datetime
    rows: tuple[Interval, ...]

    @property
    def io_rate(self) -> float:
        return sum(r.io_rate for r in self.rows)

    @property
    def mb_s(self) -> float:
        return sum(r.mb_s for r in self.rows)

    @property
    def response_ms(self) -> float | None:
        measured = [r for r in self.rows if r.response_ms is not None]
        total = sum(r.io_rate for r in measured)
        if not measured or total <= 0:
            return None
        return sum(r.io_rate * (r.response_ms or 0.0) for r in measured) / total

    @property
    def label(self) -> str:
        when = self.time.isoformat(sep=" ", timespec="minutes")
        named = {"io": "I/O peak", "mbs": "MB/s peak", "response": "response-time peak"}
        return f"{named.get(self.reason, 'interval')} {when}"


def select(intervals: Sequence[Interval], wanted: Sequence[str], source: str) -> list[Selection]:
    """The intervals `wanted` names, in that order (a peak name or an ISO time); one interval
    asked for twice is kept once."""
    groups = by_time(intervals)
    out: list[Selection] = []
    for want in wanted or ("io",):
        if want in PEAKS:
            if want == "response" and all(r.response_ms is None for r in intervals):
                raise InputError(f"{source}: --peak response needs a response_ms column")

            def score(rows: list[Interval], want: str = want) -> float:
                sel = Selection(want, rows[0].time, tuple(rows))
                if want == "io":
                    return sel.io_rate
                if want == "mbs":
                    return sel.mb_s
                return sel.response_ms or -1.0

            time = max(groups, key=lambda t: (score(groups[t]), t))
        else:
            try:
                time = dt.datetime.fromisoformat(want.strip())
            except ValueError:
                raise InputError(
                    f"--peak: {want!r} is neither a peak ({', '.join(PEAKS)}) nor an ISO time"
                ) from None
            first, last = min(groups), max(groups)
            if (time.tzinfo is None) != (first.tzinfo is None):
                with_offset = "with" if first.tzinfo is not None else "without"
                raise InputError(
                    f"--peak: {want.strip()!r}: the times in {source} are written {with_offset} "
                    f"a UTC offset (it holds {first} to {last}); give the time the same way"
                )
            if time not in groups:
                raise InputError(
                    f"--peak: no interval starts at {time} in {source} (it holds {first} to {last})"
                )
        if all(s.time != time for s in out):
            out.append(Selection(want, time, tuple(groups[time])))
    return out


def _workload(row: Interval, pool: str, capacity_gb: float | None) -> dict[str, Any]:
    capacity = row.capacity_gb if row.capacity_gb is not None else capacity_gb
    if capacity is None:
        raise InputError(
            f"scope {row.scope!r}: no capacity_gb column; give --capacity-gb (GB per scope)"
        )
    return {
        "name": row.scope,
        "pool": pool,
        "iops": _plain(row.io_rate, 3),
        "read_fraction": _plain(row.read_fraction, 6),
        # Not measured: the range any cache gives, for `diskmodel calibrate` to narrow (or the
        # report to show as a band).
        "read_hit_ratio": UNKNOWN_HIT_RATIO
        if row.read_hit_ratio is None
        else _plain(row.read_hit_ratio, 6),
        "read_size_kib": _plain(row.read_kib, 3),
        "write_size_kib": _plain(row.write_kib, 3),
        **{
            key: _plain(getattr(row, key), 6)
            for key in SEQUENTIAL
            if getattr(row, key) is not None  # measured; else the scenario's default, 0
        },
        "capacity_gb": _plain(capacity, 3),
    }


def _plain(value: float, digits: int) -> float | int:
    """A measured number as a planner writes it: 4100, not 4100.0."""
    rounded = round(value, digits)
    return int(rounded) if float(rounded).is_integer() else rounded


def scenario_part(
    selections: Sequence[Selection], pool: str, capacity_gb: float | None
) -> dict[str, Any]:
    """`workloads` from the first selection and one `analyses.compare` alternative per other
    (plain data, as a scenario holds them)."""
    first = selections[0]
    if len(first.rows) > MAX_SCOPES:
        raise InputError(
            f"{first.label}: {len(first.rows):,} scopes, each a workload; a scenario holds at "
            f"most {MAX_SCOPES}: export the scopes you size (a pool, a few volume groups)"
        )
    workloads = [_workload(r, pool, capacity_gb) for r in first.rows]
    scopes = [r.scope for r in first.rows]
    compare = []
    for sel in selections[1:]:
        rows = {r.scope: r for r in sel.rows}
        absent = [s for s in scopes if s not in rows]
        if absent:
            raise InputError(
                f"{sel.label}: no row for scope(s) {', '.join(absent)}, measured at {first.label}"
            )
        settings: dict[str, Any] = {}
        for scope in scopes:
            w = _workload(rows[scope], pool, capacity_gb)
            for key in (
                "iops",
                "read_fraction",
                "read_hit_ratio",
                "read_size_kib",
                "write_size_kib",
                *SEQUENTIAL,
            ):
                if key not in w or (key == "read_hit_ratio" and rows[scope].read_hit_ratio is None):
                    continue  # not measured: the baseline's (range, or calibrated value) holds
                settings[f"workloads.{scope}.{key}"] = w[key]
        compare.append({"name": sel.label, "set": settings})
    out: dict[str, Any] = {"workloads": workloads}
    if compare:
        out["analyses"] = {"compare": compare}
    return out


def imported_lines(selections: Sequence[Selection], source: str) -> list[str]:
    """Comment lines saying where the imported intervals came from, one for each."""
    lines = [f"# Imported from {source} by diskmodel import:"]
    for sel in selections:
        rt = sel.response_ms
        measured = f", measured {rt:.3g} ms" if rt is not None else ""
        lines.append(f"#   {sel.label}: {sel.io_rate:,.0f} IOPS, {sel.mb_s:,.1f} MB/s{measured}")
    return lines


def workloads_yaml(
    selections: Sequence[Selection], pool: str, capacity_gb: float | None, source: str
) -> str:
    """The scenario part as YAML text, with a comment saying where it came from."""
    data = scenario_part(selections, pool, capacity_gb)
    lines = imported_lines(selections, source)
    lines.append(
        "# Add schema_version, name, system, pools (the pool named here) and what the measurement"
    )
    lines.append(
        "# cannot say (destage_ratio, skew); `diskmodel check` lists the defaults it uses."
    )
    yaml = YAML()  # round-trip: keeps the order written (workloads first, then analyses)
    yaml.default_flow_style = False
    stream = io.StringIO()
    yaml.dump(data, stream)
    return "\n".join(lines) + "\n" + stream.getvalue()
