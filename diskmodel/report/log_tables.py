"""Report tables of the database logs (`Prediction.logs`): what each log's commits cost in each
configuration, and for the baseline the commit time by pages per write and stripes.

Reads `Prediction`s only; times are the log result's own microseconds, formatted here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from diskmodel.prediction import LogResult, Prediction
from diskmodel.report import display
from diskmodel.report.view import Cell, Row, Table

DASH = Cell("–", "num")


def _us(value: float | None) -> Cell:
    return Cell(f"{value:,.0f}" if value is not None else display.SATURATED_TEXT, "num")


def _stripes(k: int) -> str:
    return f"{k} stripe{'s' if k > 1 else ''}"


def _log_rows(name: str, logs: Sequence[LogResult | None]) -> list[Row]:
    def cells(show: Callable[[LogResult], Cell]) -> tuple[Cell, ...]:
        return tuple(show(log) if log is not None else DASH for log in logs)

    def page_mix(log: LogResult) -> Cell:
        return Cell(", ".join(f"{p:,} ({s:.0%})" for p, s in log.page_shares))

    def busy(log: LogResult) -> Cell:
        if log.writer_busy is None:
            return DASH
        if log.writer_busy >= 1.0:
            return Cell(display.percent(log.writer_busy), "num", "critical")
        return Cell(display.percent(log.writer_busy), "num")

    def wait(log: LogResult) -> Cell:
        if log.mean_wait_us is None:
            return Cell(display.SATURATED_TEXT, "num")
        return Cell(f"{log.mean_wait_us:,.1f} ({log.busiest_station})", "num")

    def bandwidth(log: LogResult) -> Cell:
        values = log.bandwidth_busy_mb_s or log.bandwidth_idle_mb_s
        at = log.stripe_counts.index(log.stripes)
        return Cell(f"{values[at]:,.0f}", "num")

    return [
        Row(
            f"{name}: commits per second", cells(lambda g: Cell(display.rate(g.commit_rate), "num"))
        ),
        Row(f"{name}: pages per write (share)", cells(page_mix)),
        Row(f"{name}: stripes", cells(lambda g: Cell(str(g.stripes), "num"))),
        Row(f"{name}: I/Os per commit", cells(lambda g: Cell(f"{g.ios_per_commit:.2f}", "num"))),
        Row(f"{name}: mean commit time (us)", cells(lambda g: _us(g.commit_time_us))),
        Row(
            f"{name}: with no other work (us)",
            cells(lambda g: _us(g.commit_time_idle_us)),
        ),
        Row(f"{name}: fastest stripe count", cells(lambda g: Cell(str(g.best_stripes), "num"))),
        Row(f"{name}: mean wait on its path (us)", cells(wait)),
        Row(f"{name}: a log write in progress", cells(busy)),
        Row(
            f"{name}: MB/s of back-to-back large writes",
            cells(bandwidth),
        ),
    ]


def logs_table(configs: Sequence[Prediction]) -> Table:
    """Each log in each configuration (one column per configuration)."""
    names = list(dict.fromkeys(log.name for p in configs for log in p.logs))
    rows: list[Row] = []
    for name in names:
        rows.extend(
            _log_rows(name, [next((g for g in p.logs if g.name == name), None) for p in configs])
        )
    return Table(
        key="logs",
        caption="Database logs at the planned load",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="A log write is acknowledged once it is in cache and NVS: its time is a fixed "
        "time per I/O, a time per page, the stripes' I/Os started one after another, and the "
        "waits on its front-end path at the planned load; a striped write waits for its "
        "slowest stripe. 'A log write in progress' is commits per second x commit time: at "
        "100% or more, commits must overlap or be grouped. Large writes are of the log's "
        "large_write_pages pages.",
    )


def striping_table(log: LogResult, configuration: str) -> Table:
    """Commit time by pages per write and stripe count, at the planned load (or idle)."""
    busy = log.commit_time_us is not None
    rows = []
    for row in log.table:
        times = row.busy_us if busy and row.busy_us is not None else row.idle_us
        best = log.stripe_counts[min(range(len(times)), key=times.__getitem__)]
        rows.append(Row(f"{row.pages:,}", (*(_us(t) for t in times), Cell(str(best), "num"))))
    helps = log.helps_from_busy if busy and log.helps_from_busy is not None else log.helps_from_idle
    idle = log.helps_from_idle
    beat = "; ".join(
        (f"{k} from {first:,} pages" if first is not None else f"{k} never")
        + (f" ({i:,} with no other work)" if busy and i != first and i is not None else "")
        for k, first, i in zip(log.stripe_counts[1:], helps, idle, strict=True)
    )
    return Table(
        key=f"log-{log.name}",
        caption=f"Log {log.name}: commit time (us) by pages per write and stripes"
        + (f" ({configuration})" if configuration else ""),
        columns=("pages per write", *(f"{_stripes(k)}" for k in log.stripe_counts), "fastest"),
        rows=tuple(rows),
        note=f"{'At the planned load' if busy else 'With no other work'}. Striping beats one "
        f"stripe: {beat}. Path: {log.path_basis}.",
    )
