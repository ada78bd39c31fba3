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

    def stripes(log: LogResult) -> Cell:
        return Cell(f"{log.stripes} ({log.ios_per_commit:.2f})", "num")

    def commit(log: LogResult) -> Cell:
        at_load = _us(log.commit_time_us).text
        return Cell(f"{at_load} ({log.commit_time_idle_us:,.0f})", "num")

    def fastest(log: LogResult) -> Cell:
        times = log.mean_commit_us or log.mean_commit_idle_us
        best = times[log.stripe_counts.index(log.best_stripes)]
        return Cell(f"{log.best_stripes} ({best:,.0f})", "num")

    return [
        Row(
            f"{name}: commits per second", cells(lambda g: Cell(display.rate(g.commit_rate), "num"))
        ),
        Row(f"{name}: pages per write (share)", cells(page_mix)),
        Row(f"{name}: stripes (I/Os per commit)", cells(stripes)),
        Row(f"{name}: mean commit, us (no other work)", cells(commit)),
        Row(f"{name}: fastest stripe count (its commit, us)", cells(fastest)),
        Row(f"{name}: a log write in progress", cells(busy)),
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
        "100% or more, commits must overlap or be grouped.",
    )


def striping_tables(logs: Sequence[LogResult]) -> list[Table]:
    """One striping table per distinct table: logs on the same path at the same waits share
    one (named together in its caption)."""
    groups: list[list[LogResult]] = []
    for log in logs:
        same = next(
            (g for g in groups if g[0].table == log.table and g[0].links == log.links), None
        )
        if same is None:
            groups.append([log])
        else:
            same.append(log)
    return [striping_table(g[0], ", ".join(log.name for log in g)) for g in groups]


def striping_table(log: LogResult, names: str = "") -> Table:
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
    names = names or log.name
    return Table(
        key=f"log-{log.name}",
        caption=f"Log{'s' if ',' in names else ''} {names}: commit time (us) by pages per "
        "write and stripes",
        columns=("pages per write", *(f"{_stripes(k)}" for k in log.stripe_counts), "fastest"),
        rows=tuple(rows),
        note=f"{'At the planned load' if busy else 'With no other work'}. Striping beats one "
        f"stripe: {beat}. Back-to-back writes of {log.large_write_pages:,} pages move "
        + ", ".join(
            f"{mb:,.0f} MB/s over {_stripes(k)}"
            for k, mb in zip(
                log.stripe_counts,
                log.bandwidth_busy_mb_s or log.bandwidth_idle_mb_s,
                strict=True,
            )
        )
        + f". Path: {log.path_basis}.",
    )
