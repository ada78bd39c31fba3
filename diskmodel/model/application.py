"""An application's transactions as the closed network's customers, and back.

A user thinks `Z`, then runs a transaction: `cpu` seconds on the host's CPUs and `ios` host
I/Os, `p` of them in flight at once. The closed solution (`model.closed`) works per host I/O:
in a product-form network only the demand per cycle matters, not the order of the visits, so a
transaction's think time and CPU time are spread over its I/Os (Z / ios and cpu / ios per I/O)
and the throughput in I/Os is `ios` times the transaction rate, exactly.

Parallel I/Os: a user keeps `e = p / H_p` I/Os in flight on average (`components.host`), and
is solved as `e` customers (streams), each carrying ios / e of the I/Os and cpu / e of the CPU
time, so that the CPU's and the storage's loads stay exact. Streams would also overlap the
transaction's CPU time, which a transaction runs serially: the part they would overlap,
(1 - 1 / e) cpu, is held as a pure delay in each stream's cycle, so that at light load the
transaction takes Z + cpu + ios R / e. With p = 1 (e = 1) the solution is the exact MVA of
users, CPU and storage together; with p > 1 it is an approximation (docs/model.md,
"Application").
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.configuration import ApplicationConfig
from diskmodel.model.closed import ClosedState, HostCpu


def application_loop(app: ApplicationConfig, streams: float) -> tuple[float, HostCpu]:
    """Think time per host I/O of one stream, and the host CPU station per host I/O, for an
    application solved as `streams` customers per user."""
    ios_per_stream = app.ios_per_transaction / streams
    delay_s = app.think_time_s + (1.0 - 1.0 / streams) * app.cpu_s
    return delay_s / ios_per_stream, HostCpu(app.cpu_s / app.ios_per_transaction, app.cpus)


@dataclass(frozen=True)
class TransactionState:
    """The application at `users`: transactions per second, a transaction's response (think
    excluded) and its split, the host CPUs' utilisation, and the storage's I/O rate and mean
    response per host I/O. cpu_s + cpu_wait_s + storage_s = response_s, and
    users = transactions_per_s x (response_s + think_s) (Little)."""

    users: int
    streams: float
    transactions_per_s: float
    response_s: float
    think_s: float
    cpu_s: float
    cpu_wait_s: float
    storage_s: float
    cpu_utilization: float
    storage_iops: float
    storage_response_s: float


def transactions(app: ApplicationConfig, users: int, state: ClosedState) -> TransactionState:
    """The application's view of a closed solution at `users` users (`state.population`
    streams)."""
    streams = state.population / users
    ios_per_stream = app.ios_per_transaction / streams
    rate = state.throughput / app.ios_per_transaction
    cpu_residence = state.host_residence_s * ios_per_stream + (1.0 - 1.0 / streams) * app.cpu_s
    storage = state.response_s * ios_per_stream
    return TransactionState(
        users=users,
        streams=streams,
        transactions_per_s=rate,
        response_s=cpu_residence + storage,
        think_s=app.think_time_s,
        cpu_s=app.cpu_s,
        cpu_wait_s=max(cpu_residence - app.cpu_s, 0.0),
        storage_s=storage,
        cpu_utilization=state.host_utilization,
        storage_iops=state.throughput,
        storage_response_s=state.response_s,
    )
