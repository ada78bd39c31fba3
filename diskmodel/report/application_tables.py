"""Report tables of the application above the storage (`Prediction.application`): what the
users get in each configuration, and for the baseline the sweep of users.

Reads `Prediction`s only; times are the result's own milliseconds, formatted here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from diskmodel.prediction import ApplicationResult, Prediction, TransactionPoint
from diskmodel.report import display
from diskmodel.report.view import Cell, Row, Table

DASH = Cell("–", "num")


def _cpu(app: ApplicationResult) -> str:
    return f"{display.milliseconds(app.cpu_ms_per_transaction)} ({app.cpus})"


def _ms(value: float) -> Cell:
    return Cell(display.milliseconds(value), "num")


def applications_table(configs: Sequence[Prediction]) -> Table:
    """The application at its planned users, one column per configuration."""
    apps = [p.application for p in configs]

    def cells(show: Callable[[ApplicationResult], Cell]) -> tuple[Cell, ...]:
        return tuple(show(a) if a is not None else DASH for a in apps)

    def bound(value: float | None) -> Cell:
        return Cell(display.number(value) if value is not None else "none", "num")

    rows = [
        Row("users", cells(lambda a: Cell(f"{a.users:,}", "num"))),
        Row("think time, ms", cells(lambda a: _ms(a.think_time_ms))),
        Row(
            "host CPU per transaction, ms (CPUs)",
            cells(lambda a: Cell(_cpu(a), "num")),
        ),
        Row(
            "I/Os per transaction (in flight at once)",
            cells(lambda a: Cell(f"{a.ios_per_transaction:g} ({a.parallel_ios})", "num")),
        ),
        Row(
            "transactions per second",
            cells(lambda a: Cell(display.number(a.at.transactions_per_s), "num")),
        ),
        Row("transaction response, ms", cells(lambda a: _ms(a.at.response_time_ms))),
        Row("  of which CPU, ms", cells(lambda a: _ms(a.at.cpu_ms))),
        Row("  of which CPU wait, ms", cells(lambda a: _ms(a.at.cpu_wait_ms))),
        Row("  of which storage, ms", cells(lambda a: _ms(a.at.storage_ms))),
        Row(
            "host CPU busy",
            cells(lambda a: Cell(display.percent(a.at.cpu_utilization), "num")),
        ),
        Row("storage IOPS", cells(lambda a: Cell(display.rate(a.at.storage_iops), "num"))),
        Row("storage response per I/O, ms", cells(lambda a: _ms(a.at.storage_response_time_ms))),
        Row("bound: host CPU, transactions/s", cells(lambda a: bound(a.cpu_bound_tps))),
        Row("bound: storage, transactions/s", cells(lambda a: bound(a.storage_bound_tps))),
        Row("binds first", cells(lambda a: Cell(a.limited_by))),
    ]
    methods = list(dict.fromkeys(a.method for a in apps if a is not None))
    return Table(
        key="application",
        caption="The application at its planned users",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="A transaction's response excludes think time: CPU + CPU wait + storage. Users = "
        "transactions per second x (response + think) (Little's law). The bounds are the host "
        "CPUs' (CPUs / CPU time) and the storage's (its maximum I/O rate at this mix / I/Os "
        "per transaction). Solved by " + "; ".join(methods) + ".",
    )


def _row(t: TransactionPoint) -> Row:
    return Row(
        f"{t.users:,}",
        (
            Cell(display.number(t.transactions_per_s), "num"),
            _ms(t.response_time_ms),
            _ms(t.cpu_wait_ms),
            _ms(t.storage_ms),
            Cell(display.percent(t.cpu_utilization), "num"),
            Cell(display.rate(t.storage_iops), "num"),
            _ms(t.storage_response_time_ms),
        ),
    )


def users_table(p: Prediction) -> Table:
    """The baseline's application over the users sweep."""
    app = p.application
    assert app is not None
    return Table(
        key="application-users",
        caption=f"Application {app.name}: transactions against users ({p.name})",
        columns=(
            "users",
            "transactions/s",
            "response ms",
            "CPU wait ms",
            "storage ms",
            "CPU busy",
            "storage IOPS",
            "I/O response ms",
        ),
        rows=tuple(_row(t) for t in app.curve),
        note="Each row solved on its own, as one closed network of the users, the host CPUs "
        "and the storage. The transaction rate rises with users until the lower bound binds; "
        "past it, more users only wait longer.",
    )
