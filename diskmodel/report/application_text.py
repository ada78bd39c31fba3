"""The application above the storage in the terminal summary: its transactions at the
planned users and against users, and each database log's commit time and striping table.
"""

from __future__ import annotations

from diskmodel.prediction import ApplicationResult, LogResult
from diskmodel.report import display
from diskmodel.report.phrases import ms_text
from diskmodel.report.table import TextTable, table


def application_lines(app: ApplicationResult) -> list[str]:
    """The application at its planned users, and its throughput bounds, in two lines."""
    at = app.at
    cpu = display.milliseconds(app.cpu_ms_per_transaction)
    head = (
        f"application {app.name} ({app.users:,} users, think time "
        f"{display.milliseconds(app.think_time_ms)} ms, {cpu} ms CPU on {app.cpus} CPUs, "
        f"{app.ios_per_transaction:g} I/Os per transaction"
        + (f", {app.parallel_ios} at once" if app.parallel_ios > 1 else "")
        + f"): {display.number(at.transactions_per_s)} transactions/s at "
        f"{ms_text(at.response_time_ms)} ms (CPU {ms_text(at.cpu_ms)} + CPU wait "
        f"{ms_text(at.cpu_wait_ms)} + storage {ms_text(at.storage_ms)}); host CPU "
        f"{display.percent(at.cpu_utilization)} busy; storage {display.rate(at.storage_iops)} "
        f"IOPS at {ms_text(at.storage_response_time_ms)} ms"
    )
    cpu_bound = (
        f"host CPU {display.number(app.cpu_bound_tps)}"
        if app.cpu_bound_tps is not None
        else "host CPU unbounded (no CPU time given)"
    )
    bounds = (
        f"transaction rate bounds: {cpu_bound}, storage "
        f"{display.number(app.storage_bound_tps)} transactions/s ({app.limited_by} binds)"
    )
    return [head, bounds]


def application_table(app: ApplicationResult) -> TextTable:
    rows = [
        [
            f"{t.users:,}",
            display.number(t.transactions_per_s),
            ms_text(t.response_time_ms),
            ms_text(t.cpu_wait_ms),
            ms_text(t.storage_ms),
            display.percent(t.cpu_utilization),
            display.rate(t.storage_iops),
            ms_text(t.storage_response_time_ms),
        ]
        for t in app.curve
    ]
    return table(
        [
            "users",
            "trans/s",
            "trans ms",
            "CPU wait ms",
            "storage ms",
            "CPU busy",
            "storage IOPS",
            "I/O resp ms",
        ],
        rows,
        title=f"Application {app.name} against users (a transaction's time, think excluded)",
    )


def _us(value: float) -> str:
    return f"{value:,.0f}"


def log_headline(log: LogResult) -> str:
    """What a log's commits cost at the planned load, in a sentence."""
    mix = ", ".join(f"{pages:,} ({share:.0%})" for pages, share in log.page_shares)
    stripes = f"{log.stripes} stripe{'s' if log.stripes > 1 else ''}"
    head = (
        f"Log {log.name} (pool {log.pool}): {display.rate(log.commit_rate)} commits/s of "
        f"{mix} pages of {log.page_kib:g} KiB, {stripes}, {log.ios_per_commit:.2f} I/Os per commit"
    )
    if log.commit_time_us is None:
        return f"{head}; its front-end path is saturated at the planned load"
    parts = [
        f"{head}; mean commit {_us(log.commit_time_us)} us "
        f"({_us(log.commit_time_idle_us)} us with no other work)",
        f"fastest with {log.best_stripes} stripe{'s' if log.best_stripes > 1 else ''}",
    ]
    if log.writer_busy is not None:
        parts.append(f"a log write in progress {display.percent(log.writer_busy)} of the time")
    if log.nvs_full:
        parts.append("NVS full: writes also wait for destage, not counted here")
    return "; ".join(parts)


def log_table(log: LogResult) -> TextTable:
    busy = log.commit_time_us is not None
    rows = []
    for row in log.table:
        times = row.busy_us if busy and row.busy_us is not None else row.idle_us
        best = log.stripe_counts[min(range(len(times)), key=times.__getitem__)]
        rows.append([f"{row.pages:,}", *(_us(t) for t in times), str(best)])
    helps = log.helps_from_busy if busy and log.helps_from_busy is not None else log.helps_from_idle
    beat = "; ".join(
        f"{k} from {first:,} pages" if first is not None else f"{k} never"
        for k, first in zip(log.stripe_counts[1:], helps, strict=True)
    )
    where = "at the planned load" if busy else "with no other work"
    return table(
        ["pages", *(f"{k} stripe{'s' if k > 1 else ''} us" for k in log.stripe_counts), "best"],
        rows,
        title=f"Log {log.name}: mean commit time {where} (striping beats one stripe: {beat})",
    )
