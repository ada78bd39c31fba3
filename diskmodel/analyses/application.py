"""The application above the storage: transactions at the planned users and a sweep of users.

Every point is a `Solver.closed_point` at that many users, so the application's figures and
the storage's (utilisations, per-workload responses) at the planned users are one solution.
The sweep runs from one user to twice the knee of the asymptotic bounds (Denning & Buzen: the
users N* = X_max (Z + R_1) at which the lightest-load line meets the throughput bound) or the
planned users, whichever is more, so that the chart shows the rise, the knee and the flat; but
never past `APPLICATION_REACH` times the planned users (the work `analyses.budget` allows for).
"""

from __future__ import annotations

import math

import numpy as np

from diskmodel.components.host import concurrent_streams, customers
from diskmodel.configuration import ApplicationConfig
from diskmodel.model.application import TransactionState
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import (
    ApplicationResult,
    ClosedPoint,
    ClosedSystemResult,
    TransactionPoint,
)
from diskmodel.scenario.limits import MAX_POPULATION
from diskmodel.units import MS

APPLICATION_SWEEP = 14
"""Users of an application's sweep, each solved on its own, spaced geometrically up to
`APPLICATION_REACH` x the planned users."""
APPLICATION_REACH = 4


def _point(t: TransactionState) -> TransactionPoint:
    return TransactionPoint(
        users=t.users,
        transactions_per_s=t.transactions_per_s,
        response_time_ms=t.response_s / MS,
        cpu_ms=t.cpu_s / MS,
        cpu_wait_ms=t.cpu_wait_s / MS,
        storage_ms=t.storage_s / MS,
        cpu_utilization=t.cpu_utilization,
        storage_iops=t.storage_iops,
        storage_response_time_ms=t.storage_response_s / MS,
    )


def _at(solver: Solver, users: int) -> TransactionState:
    point = solver.closed_point(users)
    assert point.transactions is not None
    return point.transactions


def _method(app: ApplicationConfig) -> str:
    if app.parallel_ios == 1:
        return (
            "exact mean value analysis of the users, the host CPUs and the storage as one "
            "closed network (product form)"
        )
    e = concurrent_streams(app.parallel_ios)
    return (
        f"approximation (throughput -1% to +10% off a simulation over 144 cases, docs/model.md): "
        f"{app.parallel_ios} "
        f"parallel I/Os as {e:.2f} concurrent streams per "
        f"user (p / H_p, the mean I/Os in flight over a round when the slowest of p ends it), "
        "the CPU time the streams would overlap held as a delay"
    )


def application_result(
    app: ApplicationConfig, solver: Solver, planned: OperatingPoint, max_iops: float
) -> ApplicationResult:
    """The application at its planned users (`planned`, the configuration's planned point)
    and over a sweep of users, with its throughput bounds."""
    assert planned.transactions is not None
    cpu_bound = app.cpus / app.cpu_s if app.cpu_s > 0 else None
    storage_bound = max_iops / app.ios_per_transaction
    bound = min(cpu_bound or math.inf, storage_bound)
    one = _at(solver, 1)
    largest_users = max(1, int(MAX_POPULATION / concurrent_streams(app.parallel_ios)))
    while customers(largest_users, app.parallel_ios) > MAX_POPULATION:
        largest_users -= 1
    knee = bound * (app.think_time_s + one.response_s) if math.isfinite(bound) else 1.0
    reach = max(app.users, math.ceil(2 * knee), 2)
    top = int(min(largest_users, APPLICATION_REACH * app.users, reach))
    count = min(top, APPLICATION_SWEEP)
    swept = np.unique(np.round(np.geomspace(1, top, count)).astype(int)).tolist()
    # The planned users are a point of the sweep; a swept point within 5% of them is not.
    near = [n for n in swept if n != 1 and abs(n - app.users) <= 0.05 * app.users]
    users = sorted({1, app.users, top, *swept} - set(near) | {app.users})
    states = {1: one, app.users: planned.transactions}
    curve = tuple(_point(states.get(n) or _at(solver, int(n))) for n in users)
    return ApplicationResult(
        name=app.name,
        users=app.users,
        think_time_ms=app.think_time_s / MS,
        cpu_ms_per_transaction=app.cpu_s / MS,
        cpus=app.cpus,
        ios_per_transaction=app.ios_per_transaction,
        parallel_ios=app.parallel_ios,
        at=_point(planned.transactions),
        curve=curve,
        cpu_bound_tps=cpu_bound,
        storage_bound_tps=storage_bound,
        limited_by="host CPU" if cpu_bound is not None and cpu_bound < storage_bound else "storage",
        method=_method(app),
    )


def closed_result(
    app: ApplicationConfig, result: ApplicationResult, planned: OperatingPoint
) -> ClosedSystemResult:
    """The application's `closed` block: the storage's closed network as it was solved, its
    customers the users' I/O streams (the users themselves when each has one I/O in flight;
    p / H_p each with `parallel_ios` p), each spending `think_time_ms` outside the storage per
    I/O (the users' think time and the host CPU, its waits included, spread over their I/Os),
    so that population / iops - think time = the response per I/O (Little's law, as
    docs/json-schema.md states it for every closed block). It once gave the users' think time
    per transaction beside the storage's rate and response per I/O: -189 ms by that law on the
    shipped OLTP application, against 0.715 ms (issue 33 item 8)."""
    state = planned.closed
    assert state is not None
    return ClosedSystemResult(
        population=state.population,
        population_kind="users",
        think_time_ms=(state.think_time_s + state.host_residence_s) / MS,
        iops=result.at.storage_iops,
        response_time_ms=result.at.storage_response_time_ms,
        destage_limited=state.destage_limited,
        curve=tuple(
            ClosedPoint(
                customers(p.users, app.parallel_ios), p.storage_iops, p.storage_response_time_ms
            )
            for p in result.curve
        ),
    )
