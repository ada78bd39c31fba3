"""The striped log-write model: commit time for p pages written over k stripes.

A database log (Db2) is written sequentially and synchronously at commit. One write of p pages
costs a fixed per-I/O overhead F (channel program, adapter and processor work, NVS mirroring)
plus a transfer time t per page. Striping the log over k volumes splits the write into k
writes of ceil(p/k) pages, but the k I/Os are started one after another and each pays F, and
the commit waits for the slowest:

    T(p, 1) = F + p t
    T(p, k) = (k - 1) d + F + ceil(p / k) t

where d is the interval between two starts. DOMAIN.md describes the starts as serial and each
paying the fixed overhead, so the default is d = F; a host that overlaps the starts has a
smaller d. Striping pays when the transfer saved, (p - ceil(p/k)) t, exceeds (k - 1) d: it
helps large (batch) writes and hurts small (OLTP) ones.

F and t are fitted from two measured points of the unstriped write (`LogPath.from_measurements`),
e.g. DOMAIN.md C6 for a DS8800 with 8 Gb/s FICON: 1 page about 170 us, 128 pages about 2.5 ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class LogPath:
    """One log volume's write path: fixed cost per I/O, cost per page, start interval."""

    fixed_us: float
    per_page_us: float
    start_interval_us: float

    def __post_init__(self) -> None:
        for name in ("fixed_us", "per_page_us", "start_interval_us"):
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


def commit_time_us(
    path: LogPath, pages: npt.ArrayLike, stripes: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """Time for a commit of `pages` pages over `stripes` volumes (broadcasts), microseconds."""
    p = np.asarray(pages, dtype=float)
    k = np.asarray(stripes, dtype=float)
    if np.any(p < 1) or np.any(k < 1) or np.any(p != np.floor(p)) or np.any(k != np.floor(k)):
        raise ValueError("pages and stripes must be whole numbers of at least 1")
    # A stripe with no page is not written: more stripes than pages behave like k = p.
    k = np.minimum(k, p)
    return np.asarray(
        (k - 1) * path.start_interval_us + path.fixed_us + np.ceil(p / k) * path.per_page_us,
        dtype=float,
    )


def best_stripes(path: LogPath, pages: int, max_stripes: int) -> int:
    """The stripe count (1..max_stripes) that gives the shortest commit for `pages` pages."""
    counts = np.arange(1, max_stripes + 1)
    times = commit_time_us(path, pages, counts)
    return int(counts[int(np.argmin(times))])
