"""What the application above the storage adds to a scenario: the database logs it writes at
commit (the `logs` section) and its users and transactions (the `application` section).
"""

from __future__ import annotations

import math
from typing import Self

from pydantic import Field, field_validator, model_validator

from diskmodel.scenario.limits import MAX_POPULATION
from diskmodel.scenario.values import Model, Name, problem
from diskmodel.scenario.workloads import MAX_TRANSFER_KIB, Workload
from diskmodel.vocabulary import TierName

MAX_LOG_PAGES = 4096
"""Pages in one log write, at most (Db2 writes at most 128 pages of 4 KiB per log I/O; the
bound leaves room for other logs and page sizes)."""


class Log(Model):
    """A database log written synchronously at commit, optionally striped over volumes.

    Its writes join the storage model as a sequential write workload of the same name (so a
    busy log shows in the other workloads' results), and its commit time is computed by the
    striped log-write model (docs/model.md, "Log writes") at the waits that load predicts.
    """

    name: Name = Field(description="the log's name in reports; unique among workloads and logs")
    pool: Name = Field(description="the pool holding the log volumes")
    commit_rate: float = Field(gt=0, le=1e7, description="log writes (commits) per second")
    pages_per_commit: int | dict[int, float] = Field(
        description="pages per log write: a number, or {pages: share of writes} summing to 1"
    )
    page_kib: float = Field(4.0, gt=0, le=64, description="log page size, KiB")
    stripes: int = Field(1, ge=1, le=64, description="volumes the log is striped over")
    links: int | None = Field(
        None, ge=1, le=64, description="host ports or channels the stripes share; default: one each"
    )
    striping_overhead_us: float | None = Field(
        None,
        ge=0,
        le=1e5,
        description="the striping layer's own time per striped write, us; default: the "
        "catalog system's log_striping_us",
    )
    large_write_pages: int = Field(
        128, ge=1, le=MAX_LOG_PAGES, description="pages of one large asynchronous log write"
    )
    capacity_gb: float = Field(10.0, gt=0, le=1e6, description="the log data sets' capacity, GB")
    pin_tier: TierName | None = Field(None, description="place the log on one tier")

    @field_validator("pages_per_commit")
    @classmethod
    def _pages(cls, value: int | dict[int, float]) -> int | dict[int, float]:
        given = {value: 1.0} if isinstance(value, int) else value
        if not given:
            raise problem("pages_per_commit: give a number of pages or {pages: share}")
        for pages, share in given.items():
            if not 1 <= pages <= MAX_LOG_PAGES:
                raise problem(f"pages_per_commit: {pages} pages; give 1 to {MAX_LOG_PAGES:,}")
            if not (math.isfinite(share) and 0 < share <= 1):
                raise problem(f"pages_per_commit: the share of {pages} pages must be in (0, 1]")
        total = sum(given.values())
        if not math.isclose(total, 1.0, abs_tol=1e-6):
            raise problem(f"pages_per_commit: the shares add up to {total:g}, not 1")
        return value

    @model_validator(mode="after")
    def _one_io_fits(self) -> Self:
        largest = max(pages for pages, _ in self.page_shares) * self.page_kib
        if largest > MAX_TRANSFER_KIB:
            raise problem(
                f"pages_per_commit x page_kib: a log write of {largest:,.0f} KiB; one I/O "
                f"carries at most {MAX_TRANSFER_KIB:,} KiB"
            )
        return self

    @property
    def page_shares(self) -> tuple[tuple[int, float], ...]:
        """(pages, share of log writes), fewest pages first."""
        given = (
            {self.pages_per_commit: 1.0}
            if isinstance(self.pages_per_commit, int)
            else self.pages_per_commit
        )
        return tuple(sorted(given.items()))

    def ios_per_commit(self) -> float:
        """Mean I/Os of one log write: a stripe with no page is not written."""
        return sum(share * min(pages, self.stripes) for pages, share in self.page_shares)

    def as_workload(self) -> Workload:
        """The log's writes as the storage model sees them: sequential writes of the pages each
        stripe gets, one I/O per written stripe."""
        ios = self.ios_per_commit()
        kib = sum(share * pages for pages, share in self.page_shares) * self.page_kib
        return Workload(
            name=self.name,
            pool=self.pool,
            iops=self.commit_rate * ios,
            read_fraction=0.0,
            read_hit_ratio=0.0,
            write_size_kib=kib / ios,
            write_sequential_fraction=1.0,
            capacity_gb=self.capacity_gb,
            pin_tier=self.pin_tier,
        )


class Application(Model):
    """The application above the storage: users who think, then run a transaction that takes
    host CPU time and issues host I/Os (to the workloads that give `ios_per_transaction`).
    Solved as one closed network with the storage (docs/model.md, "Application")."""

    name: Name = Field("application", description="the application's name in reports")
    users: int = Field(gt=0, le=MAX_POPULATION, description="users (or client processes)")
    think_time_ms: float = Field(
        0.0, ge=0, le=3.6e6, description="each user's pause between transactions, ms"
    )
    cpu_ms_per_transaction: float = Field(
        0.0, ge=0, le=3.6e6, description="host CPU time one transaction takes, ms"
    )
    cpus: int = Field(1, gt=0, le=4096, description="host CPUs (cores) serving the transactions")
    parallel_ios: int = Field(
        1,
        ge=1,
        le=64,
        description="host I/Os one transaction has in flight at once (1: one after another)",
    )
