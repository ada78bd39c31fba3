"""The striped log-write model: commit time for p pages written over k stripes.

A database log (Db2) is written sequentially and synchronously at commit. One write of p pages
costs a fixed per-I/O overhead F (channel program, adapter and processor work, NVS mirroring)
plus a transfer time t per page. Striping the log over k volumes splits the write into k
writes, pages dealt round-robin (stripe j gets ceil((p - j) / k) of them), but the k I/Os are
started one after another, each start d after the previous, and the commit waits for the
slowest. With every stripe on its own link and no other work:

    T(p, k) = max_j [ j d + F + n_j t ],   n_j = ceil((p - j) / k),  j = 0 .. k-1

(T(p, 1) = F + p t.) DOMAIN.md describes the starts as serial and each paying the fixed
overhead, so the default is d = F; a host that overlaps the starts has a smaller d. Striping
pays when the transfer saved exceeds the later starts: it helps large (batch) writes and hurts
small (OLTP) ones.

**Shared links.** Stripes dealt round-robin over L links (channels or host ports) transfer one
after another on each link: stripe j's transfer begins when both its own start is done
(j d + F) and the link's previous transfer has finished.

**Striping layer.** A striped write (k > 1) also pays the striping layer's own work once
(splitting the write, gathering the completions): `striping_us`, added to every stripe's time.
The catalog's `log_striping_us` (17 us, derived from a published measurement: a one-page
commit about 10% slower striped than unstriped; a one-page write goes to one stripe, so this is
all the difference) is the default for a scenario's logs and `diskmodel logwrite`.

**Contention.** Other work keeps the stations on a stripe's path busy. A stripe's wait there
has the tail of an M/M/1 or M/M/c queue in steady state: P(W > w) = q exp(-q w / W), q the
probability of waiting and W the mean wait (M/M/1: q = rho, W = rho S / (1 - rho); M/M/c: q
is Erlang's C). For a path of several stations the waits are summed in the mean (W the sum of
the stations' mean waits) and q is the busiest station's; the mean of each stripe is exact and
the tail an approximation. The k paths are taken as independent (distinct ranks, adapters or
ports). The commit is the maximum of a_j + W_j (a_j the stripe's time without waiting), whose
mean is computed exactly from the distribution of the maximum, E = integral of
(1 - prod_j P(a_j + W_j <= x)) dx: with z = exp(-decay x) the integrand is a polynomial in z,
integrated exactly by Gauss-Legendre (no scipy, microseconds a commit). This replaces a
fork-join approximation (Nelson and Tantawi 1988 treat k identical queues fed by the fork
itself; here the queues are fed by other work and the stripes start at different times, which
the exact order statistic handles). `tests/test_logwrite.py` checks it against a seeded
simulation.

**From the hardware.** `LogPath.from_hardware`: F is the system's light-load front-end time of
one I/O (catalog `front_end_latency_us`); t is a page's transfer over the port
(`port_bandwidth_mb_s`) plus the controller's copy of it into cache and NVS
(`write_copy_us_per_kib`). On a DS8800 with 8 Gb/s ports that gives 168 us for one page,
2,498 us for 128 and 223 us for 4, against DOMAIN.md C6's 170, 2,500 and 228.

F and t are fitted from two measured points of the unstriped write (`LogPath.from_measurements`),
e.g. DOMAIN.md C6 for a DS8800 with 8 Gb/s FICON: 1 page about 170 us, 128 pages about 2.5 ms.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diskmodel.units import KIB, MB, US


@dataclass(frozen=True)
class LogPath:
    """One log volume's write path: fixed cost per I/O, cost per page, start interval."""

    fixed_us: float
    per_page_us: float
    start_interval_us: float
    striping_us: float = 0.0

    def __post_init__(self) -> None:
        for name in ("fixed_us", "per_page_us", "start_interval_us", "striping_us"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite, non-negative time, not {value!r}")

    @classmethod
    def from_measurements(
        cls,
        pages_a: int,
        time_a_us: float,
        pages_b: int,
        time_b_us: float,
        start_interval_us: float | None = None,
    ) -> LogPath:
        """Fit F and t through two unstriped measurements (pages, time); d defaults to F."""
        if pages_a == pages_b:
            raise ValueError("two measurements with different page counts are needed")
        per_page = (time_b_us - time_a_us) / (pages_b - pages_a)
        fixed = time_a_us - pages_a * per_page
        if per_page <= 0 or fixed < 0:
            raise ValueError(
                f"the measurements imply a per-page time of {per_page:.3g} us and a fixed time "
                f"of {fixed:.3g} us; both must be positive (is the larger write slower?)"
            )
        interval = fixed if start_interval_us is None else start_interval_us
        return cls(fixed_us=fixed, per_page_us=per_page, start_interval_us=interval)

    @classmethod
    def from_hardware(
        cls,
        front_end_latency_us: float,
        port_bandwidth_mb_s: float,
        write_copy_us_per_kib: float,
        page_kib: float = 4.0,
        *,
        start_interval_us: float | None = None,
        striping_us: float = 0.0,
    ) -> LogPath:
        """F = the front end's fixed time per I/O; t = a page over the port plus its copy into
        cache and NVS (module docstring); d defaults to F."""
        if not (port_bandwidth_mb_s > 0 and page_kib > 0):
            raise ValueError("port bandwidth and page size must be positive")
        per_page = (
            page_kib * KIB / (port_bandwidth_mb_s * MB) / US + write_copy_us_per_kib * page_kib
        )
        interval = front_end_latency_us if start_interval_us is None else start_interval_us
        return cls(front_end_latency_us, per_page, interval, striping_us)


@dataclass(frozen=True)
class Contention:
    """The wait other work causes on a stripe's path (module docstring): the probability of
    waiting at all and the mean wait, microseconds."""

    wait_probability: float
    mean_wait_us: float

    def __post_init__(self) -> None:
        if not (0.0 <= self.wait_probability < 1.0):
            raise ValueError(f"wait_probability must be in [0, 1), not {self.wait_probability!r}")
        if not (math.isfinite(self.mean_wait_us) and self.mean_wait_us >= 0.0):
            raise ValueError(
                f"mean_wait_us must be a finite, non-negative time, not {self.mean_wait_us!r}"
            )

    @classmethod
    def mm1(cls, utilization: float, service_us: float) -> Contention:
        """One M/M/1 station busy `utilization` with other work, `service_us` per operation."""
        if not (0.0 <= utilization < 1.0):
            raise ValueError(f"utilization must be in [0, 1), not {utilization!r}")
        if not (math.isfinite(service_us) and service_us >= 0.0):
            raise ValueError(f"service_us must be a finite, non-negative time, not {service_us!r}")
        return cls(utilization, utilization * service_us / (1.0 - utilization))

    @property
    def idle(self) -> bool:
        return self.wait_probability == 0.0 or self.mean_wait_us == 0.0


def _check_counts(pages: float, stripes: float) -> None:
    if pages < 1 or stripes < 1 or pages != math.floor(pages) or stripes != math.floor(stripes):
        raise ValueError("pages and stripes must be whole numbers of at least 1")


def stripe_times_us(
    path: LogPath, pages: int, stripes: int, links: int | None = None
) -> list[float]:
    """Each stripe's completion time without waiting (module docstring), microseconds."""
    _check_counts(pages, stripes)
    if links is not None and links < 1:
        raise ValueError("links must be at least 1")
    k = min(int(stripes), int(pages))  # a stripe with no page is not written
    shared = k if links is None else min(int(links), k)
    link_free = [0.0] * shared
    out = []
    for j in range(k):
        pages_j = -(-(int(pages) - j) // k)  # ceil((p - j) / k)
        # The striping layer handles every write to a striped log, a one-page one too (it
        # goes to one stripe, so the layer's work is all it costs more than unstriped).
        started = j * path.start_interval_us + path.fixed_us + (stripes > 1) * path.striping_us
        link = j % shared
        done = max(started, link_free[link]) + pages_j * path.per_page_us
        link_free[link] = done
        out.append(done)
    return out


def expected_commit_us(
    path: LogPath,
    pages: int,
    stripes: int,
    *,
    links: int | None = None,
    contention: Contention | None = None,
) -> float:
    """Mean commit time of `pages` pages over `stripes` stripes (module docstring): `links`
    shared by the stripes (None: one each), waits at a station busy with other work."""
    ends = stripe_times_us(path, pages, stripes, links)
    if contention is None or contention.idle:
        return max(ends)
    q = contention.wait_probability
    rate = q / contention.mean_wait_us  # the tail's decay: P(W > w) = q exp(-rate w)
    a = np.asarray(ends)
    top = float(a.max())
    # Below the latest a_j the maximum is certainly larger; above it, with z = exp(-rate (x -
    # top)) and c_j = q exp(-rate (top - a_j)), P(max <= x) = prod_j (1 - c_j z), so
    # E[max] = top + (1 / rate) * integral over z in (0, 1) of (1 - prod_j (1 - c_j z)) / z,
    # a polynomial of degree k - 1 in z: Gauss-Legendre with k // 2 + 1 nodes is exact.
    c = q * np.exp(-rate * (top - a))
    nodes, weights = _gauss_legendre(len(a) // 2 + 1)
    z = 0.5 * (nodes + 1.0)
    gap = -np.expm1(np.log1p(-np.outer(z, c)).sum(axis=1))  # 1 - prod, without cancellation
    return top + float(0.5 * weights @ (gap / z)) / rate


@functools.cache
def _gauss_legendre(n: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """numpy's n-point Gauss-Legendre nodes and weights, computed once per n (an eigenvalue
    problem: most of a commit time's cost, and a log's commit sizes ask for a few n only)."""
    nodes, weights = np.polynomial.legendre.leggauss(n)
    nodes.setflags(write=False)
    weights.setflags(write=False)
    return nodes, weights


def commit_time_us(
    path: LogPath, pages: npt.ArrayLike, stripes: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """Time for a commit of `pages` pages over `stripes` volumes, each stripe on its own link,
    no other work (broadcasts), microseconds."""
    p = np.asarray(pages, dtype=float)
    k = np.asarray(stripes, dtype=float)
    if np.any(p < 1) or np.any(k < 1) or np.any(p != np.floor(p)) or np.any(k != np.floor(k)):
        raise ValueError("pages and stripes must be whole numbers of at least 1")
    p, k = np.broadcast_arrays(p, k)
    out = np.array(
        [
            max(stripe_times_us(path, int(a), int(b)))
            for a, b in zip(p.ravel(), k.ravel(), strict=True)
        ],
        dtype=float,
    )
    return out.reshape(p.shape)


def best_stripes(path: LogPath, pages: int, max_stripes: int) -> int:
    """The stripe count (1..max_stripes) that gives the shortest commit for `pages` pages."""
    counts = np.arange(1, max_stripes + 1)
    times = commit_time_us(path, pages, counts)
    return int(counts[int(np.argmin(times))])


@dataclass(frozen=True)
class StripingSummary:
    """Commit times for several page counts and stripe counts, and from how many pages per
    commit each stripe count beats one (None: not up to `SEARCH_PAGES`)."""

    description: str
    stripes: tuple[int, ...]
    pages: tuple[int, ...]
    times_us: tuple[tuple[float, ...], ...]  # [page count][stripe count]
    helps_from: tuple[int | None, ...]  # per stripe count after the first


SEARCH_PAGES = 4096


def striping_summary(
    path: LogPath,
    pages: Sequence[int],
    *,
    stripes: Sequence[int] = (1, 2, 4, 8),
    links: int | None = None,
    contention: Contention | None = None,
) -> StripingSummary:
    """The answer to "should I stripe my log?" for `pages` pages per commit."""

    def t(p: int, k: int) -> float:
        return expected_commit_us(path, p, k, links=links, contention=contention)

    helps = tuple(
        next((p for p in range(1, SEARCH_PAGES + 1) if t(p, k) < t(p, 1)), None)
        for k in stripes[1:]
    )
    where = "each stripe on its own link" if links is None else f"{links} shared link(s)"
    busy = (
        "no other work"
        if contention is None or contention.idle
        else f"other work: a {contention.wait_probability:.0%} chance of waiting on each path, "
        f"{contention.mean_wait_us:.1f} us mean wait"
    )
    return StripingSummary(
        description=(
            f"Log write: {path.fixed_us:.1f} us per I/O, {path.per_page_us:.2f} us per page, "
            f"starts {path.start_interval_us:.1f} us apart"
            + (f", {path.striping_us:g} us striping" if path.striping_us else "")
            + f"; {where}; {busy}"
        ),
        stripes=tuple(stripes),
        pages=tuple(pages),
        times_us=tuple(tuple(t(p, k) for k in stripes) for p in pages),
        helps_from=helps,
    )
