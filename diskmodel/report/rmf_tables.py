"""The z/OS view of a prediction: each z/OS workload's response time as RMF reports it (IOSQ,
PEND, DISC, CONN, adding up to it) and the FICON channels' utilisation against their ceiling,
for the terminal (`rmf_text_table`) and the page (`rmf_table`). Open-systems workloads are not
in it: their breakdown by component is the one they always had."""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import Prediction, WorkloadResult
from diskmodel.report import display
from diskmodel.report.phrases import ms_text
from diskmodel.report.table import TextTable, table
from diskmodel.report.view import Cell, Row, Table

COLUMNS = ("IOPS", "resp ms", "IOSQ", "PEND", "DISC", "CONN", "volumes", "PAV")
"""The columns after the workload's name."""


def has_zos(p: Prediction) -> bool:
    """Any z/OS workload (one with RMF components) in the configuration."""
    return any(w.rmf is not None for w in p.workloads)


def channel_lines(p: Prediction) -> tuple[str, ...]:
    """The FICON channels in a line or two: their busiest's utilisation (and whether it is
    above the ceiling), then the ceiling (the service level's `utilization.channel`) and the
    load at which the busiest channel reaches it (the limit's highest load meeting it). Empty
    without channels."""
    channels = [c for c in p.components if c.kind == "channel"]
    if not channels:
        return ()
    top = max(channels, key=lambda c: c.utilization)
    ceiling = p.inputs.service_level.utilization.get("channel")
    over = ceiling is not None and top.utilization > ceiling
    busiest = f"FICON channels: {len(channels)}, busiest {display.percent(top.utilization)}" + (
        ", above the ceiling" if over else ""
    )
    if ceiling is None:
        return (busiest,)
    names = {c.name for c in channels}
    limit = next(
        (
            lim
            for lim in p.service_level.limits
            if lim.kind == "utilization" and lim.component in names
        ),
        None,
    )
    reached = (
        ""
        if limit is None
        else ": not reached before saturation"
        if limit.max_iops is None
        else f": reached at {display.rate_3sf(limit.max_iops)} IOPS"
    )
    return busiest, f"channel ceiling {display.percent(ceiling, 0)}{reached}"


def _values(w: WorkloadResult) -> tuple[float | None, ...]:
    assert w.rmf is not None
    r = w.rmf
    return (w.response_time_ms, r.iosq_ms, r.pend_ms, r.disc_ms, r.conn_ms)


def rmf_text_table(p: Prediction) -> TextTable:
    """The terminal's table of the z/OS workloads' RMF components (ms)."""
    rows = [
        [
            w.name,
            display.rate(w.iops),
            *(ms_text(v) for v in _values(w)),
            f"{w.rmf.volumes:,}",
            w.rmf.pav,
        ]
        for w in p.workloads
        if w.rmf is not None
    ]
    title = "z/OS workloads as RMF reports them (ms; IOSQ + PEND + DISC + CONN = resp)"
    return table(["workload", *COLUMNS], rows, title="\n".join((title, *channel_lines(p))))


def rmf_table(configs: Sequence[Prediction]) -> Table:
    """The page's table of every configuration's z/OS workloads' RMF components."""
    several = len(configs) > 1
    rows = []
    for p in configs:
        for w in p.workloads:
            if w.rmf is None:
                continue
            rows.append(
                Row(
                    f"{p.name}: {w.name}" if several else w.name,
                    (
                        Cell(display.rate(w.iops), "num"),
                        *(Cell(ms_text(v), "num") for v in _values(w)),
                        Cell(f"{w.rmf.volumes:,}", "num"),
                        Cell(w.rmf.pav),
                    ),
                )
            )
    notes = [
        f"{p.name}: {', '.join(lines)}" if several else ", ".join(lines)
        for p, lines in ((p, channel_lines(p)) for p in configs)
        if lines
    ]
    return Table(
        key="rmf",
        caption="z/OS workloads: response time as RMF reports it (ms)",
        columns=("configuration: workload" if several else "workload", *COLUMNS),
        rows=tuple(rows),
        note="IOSQ: queued in z/OS for the device (its base and aliases busy); PEND: channel "
        "and port waits and the start of the I/O; DISC: cache misses staged from the ranks; "
        "CONN: the transfer and the system's work while connected. They add up to the "
        "response time. " + "; ".join(notes),
    )
