"""A database log at the planned load: commit time for its page mix and stripes, the striping
table, and the waits its writes meet (docs/model.md, "Log writes").

The log's writes are a workload of the storage model (sequential writes of the pages each
stripe gets), so the planned operating point already carries their load. A log write is
acknowledged once it is in cache and NVS: its path is the front end (the host ports, the
server owning the data), and the waits it meets there are the storage model's own waits for
that workload at that point. Ranks
and DA pairs are off the synchronous path unless NVS is full, which the result flags.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.configuration import LogConfig
from diskmodel.logwrite import SEARCH_PAGES, Contention, expected_commit_us
from diskmodel.model.operating import OperatingPoint
from diskmodel.prediction import LogResult, LogStripingRow
from diskmodel.queueing import erlang_c
from diskmodel.units import KIB, MB, US
from diskmodel.vocabulary import COMPONENT_KIND

STRIPE_COUNTS = (1, 2, 4, 8)
"""Stripe counts every log is tabulated for (issue 15), with its own added."""
TABLE_PAGES = (1, 2, 4, 8, 16, 32, 64, 128)
"""Pages per commit in every log's table, with its own page counts added."""


def front_end_contention(point: OperatingPoint, log: str) -> tuple[Contention | None, str]:
    """The waits at `point` on the front-end path of log `log`'s writes, and the station where
    they wait longest.

    The mean wait is the storage model's own for the log's writes (the workload of the same
    name): at each port and server, its service there times the station's wait ratio (a visit
    waits in proportion to its own service, `model.open`), summed. The probability of waiting
    is the largest of the stations' (Erlang C at a multi-core server). None when a station on
    the path is saturated.
    """
    net = point.network
    times = net.times
    w = next(i for i, wl in enumerate(net.workloads) if wl.name == log)
    classes = [g for g, (owner, _) in enumerate(times.keys) if owner == w]
    total_wait = 0.0
    probability = 0.0
    longest, longest_wait = "", -1.0
    for k, st in enumerate(net.stations):
        if not COMPONENT_KIND[st.kind].front_end:
            continue
        visited = float(times.visits[classes, k].sum())
        if visited <= 0:
            continue
        if point.station_saturated[k]:
            return None, st.name
        wait = float(times.service_s[classes, k].sum()) / len(classes) * float(point.wait_ratio[k])
        total_wait += wait
        rho = float(point.utilization[k])
        probability = max(probability, float(erlang_c(st.servers, st.servers * rho)))
        if wait > longest_wait:
            longest, longest_wait = st.name, wait
    if total_wait <= 0.0 or probability <= 0.0:
        return Contention(0.0, 0.0), longest
    return Contention(min(probability, 1.0 - 1e-12), total_wait / US), longest


def _mean_commit(
    log: LogConfig, stripes: int, contention: Contention | None, shares: Sequence[tuple[int, float]]
) -> float:
    return sum(
        share * expected_commit_us(log.path, pages, stripes, links=log.links, contention=contention)
        for pages, share in shares
    )


def _helps_from(log: LogConfig, stripes: int, contention: Contention | None) -> int | None:
    """The fewest pages per commit at which `stripes` stripes beat one (None: not up to
    `SEARCH_PAGES`)."""

    def t(p: int, k: int) -> float:
        return expected_commit_us(log.path, p, k, links=log.links, contention=contention)

    return next((p for p in range(1, SEARCH_PAGES + 1) if t(p, stripes) < t(p, 1)), None)


def log_result(log: LogConfig, point: OperatingPoint) -> LogResult:
    """The log at operating point `point` (module docstring)."""
    busy, station = (None, "") if point.saturated else front_end_contention(point, log.name)
    counts = tuple(sorted({*STRIPE_COUNTS, log.stripes}))
    pages = tuple(sorted({*TABLE_PAGES, *(p for p, _ in log.page_shares), log.large_write_pages}))

    def times(c: Contention | None) -> list[list[float]]:
        return [
            [expected_commit_us(log.path, p, k, links=log.links, contention=c) for k in counts]
            for p in pages
        ]

    idle = times(None)
    contended = times(busy) if busy is not None else None
    mix = log.page_shares
    commit_idle = _mean_commit(log, log.stripes, None, mix)
    commit_busy = _mean_commit(log, log.stripes, busy, mix) if busy is not None else None
    by_count_idle = tuple(_mean_commit(log, k, None, mix) for k in counts)
    by_count = tuple(_mean_commit(log, k, busy, mix) for k in counts) if busy else None
    chosen = by_count or by_count_idle
    best = counts[min(range(len(counts)), key=chosen.__getitem__)]
    large = log.large_write_pages * log.page_kib * KIB / MB

    def bandwidth(c: Contention | None) -> tuple[float, ...]:
        n = log.large_write_pages
        return tuple(
            large / (expected_commit_us(log.path, n, k, links=log.links, contention=c) * US)
            for k in counts
        )

    return LogResult(
        name=log.name,
        pool=log.pool,
        commit_rate=log.commit_rate,
        page_shares=log.page_shares,
        page_kib=log.page_kib,
        stripes=log.stripes,
        links=log.links,
        ios_per_commit=log.ios_per_commit,
        fixed_us=log.path.fixed_us,
        per_page_us=log.path.per_page_us,
        start_interval_us=log.path.start_interval_us,
        striping_us=log.path.striping_us,
        path_basis=log.path_basis,
        busiest_station=station,
        wait_probability=None if busy is None else busy.wait_probability,
        mean_wait_us=None if busy is None else busy.mean_wait_us,
        saturated=busy is None,
        nvs_full=point.nvs_full,
        commit_time_idle_us=commit_idle,
        commit_time_us=commit_busy,
        best_stripes=best,
        writer_busy=None if commit_busy is None else log.commit_rate * commit_busy * US,
        stripe_counts=counts,
        mean_commit_idle_us=by_count_idle,
        mean_commit_us=by_count,
        table=tuple(
            LogStripingRow(
                pages=p,
                idle_us=tuple(idle[i]),
                busy_us=None if contended is None else tuple(contended[i]),
            )
            for i, p in enumerate(pages)
        ),
        helps_from_idle=tuple(_helps_from(log, k, None) for k in counts if k > 1),
        helps_from_busy=None
        if busy is None
        else tuple(_helps_from(log, k, busy) for k in counts if k > 1),
        large_write_pages=log.large_write_pages,
        bandwidth_idle_mb_s=bandwidth(None),
        bandwidth_busy_mb_s=None if busy is None else bandwidth(busy),
    )


def log_results(logs: Sequence[LogConfig], point: OperatingPoint) -> tuple[LogResult, ...]:
    return tuple(log_result(log, point) for log in logs)
