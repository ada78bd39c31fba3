"""What the application above the storage sees: its transactions at a number of users, and
its database logs' commit times (docs/model.md, "Application" and "Log writes")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TransactionPoint:
    """The application at a number of users: transactions per second, a transaction's
    response (think time excluded) and its split (cpu_ms + cpu_wait_ms + storage_ms), the
    host CPUs' utilisation, and the storage's host I/O rate and mean response per I/O."""

    users: int
    transactions_per_s: float
    response_time_ms: float
    cpu_ms: float
    cpu_wait_ms: float
    storage_ms: float
    cpu_utilization: float
    storage_iops: float
    storage_response_time_ms: float


@dataclass(frozen=True, slots=True)
class ApplicationResult:
    """The application above the storage (the scenario's `application`): its inputs, the
    planned users (`at`), a sweep of users from 1 past the knee, and the two throughput
    bounds: the CPUs' (cpus / cpu time) and the storage's (its maximum I/O rate with this mix
    over the I/Os per transaction). method: how it was solved (exact MVA, or the parallel-I/O
    approximation)."""

    name: str
    users: int
    think_time_ms: float
    cpu_ms_per_transaction: float
    cpus: int
    ios_per_transaction: float
    parallel_ios: int
    at: TransactionPoint
    curve: tuple[TransactionPoint, ...]
    cpu_bound_tps: float | None
    storage_bound_tps: float
    limited_by: str  # "host CPU" or "storage" (the lower bound)
    method: str


@dataclass(frozen=True, slots=True)
class LogStripingRow:
    """Mean commit time (us) of one log write of `pages` pages for each stripe count of the
    log result's `stripe_counts`, with no other work and at the planned load's waits (None:
    the front end is saturated)."""

    pages: int
    idle_us: tuple[float, ...]
    busy_us: tuple[float, ...] | None


@dataclass(frozen=True, slots=True)
class LogResult:
    """A database log at the planned load (docs/model.md, "Log writes").

    Inputs as used: commits per second, (pages, share) of its writes, page size, stripes and
    the links they share (None: one each), and its write path (fixed_us per I/O, per_page_us,
    start_interval_us between the stripes' starts, striping_us), with its basis.
    Contention: the waits its writes meet at the planned load, from the front-end stations
    (host ports, servers) the model solves with the log's own writes among the work:
    wait_probability and mean_wait_us (None when saturated); busiest_station the one with the
    longest wait. Results: commit_time_us at the log's stripes (mean over its page mix; idle
    without other work) and at every stripe count tabulated, the stripe count that commits
    fastest, the share of time a log write
    is in progress (commit_rate x commit time; at 1 or more, commits must overlap or group),
    the striping table, from how many pages each stripe count beats one, and the bandwidth of
    back-to-back large writes of `large_write_pages` pages per stripe count.
    nvs_full: writes wait for destage at the planned load, which these times leave out.
    """

    name: str
    pool: str
    commit_rate: float
    page_shares: tuple[tuple[int, float], ...]
    page_kib: float
    stripes: int
    links: int | None
    ios_per_commit: float
    fixed_us: float
    per_page_us: float
    start_interval_us: float
    striping_us: float
    path_basis: str
    busiest_station: str
    wait_probability: float | None
    mean_wait_us: float | None
    saturated: bool
    nvs_full: bool
    commit_time_idle_us: float
    commit_time_us: float | None
    best_stripes: int
    writer_busy: float | None
    stripe_counts: tuple[int, ...]
    mean_commit_idle_us: tuple[float, ...]  # over the page mix, per stripe count
    mean_commit_us: tuple[float, ...] | None
    table: tuple[LogStripingRow, ...]
    helps_from_idle: tuple[int | None, ...]  # per stripe count after the first
    helps_from_busy: tuple[int | None, ...] | None
    large_write_pages: int
    bandwidth_idle_mb_s: tuple[float, ...]  # per stripe count
    bandwidth_busy_mb_s: tuple[float, ...] | None
