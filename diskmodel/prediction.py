"""What the storage model returns: plain frozen dataclasses, milliseconds and I/O per second.

A `Prediction` is one configuration's whole answer: the inputs as the model used them (every
default filled in, every catalog figure with its source), the results at the planned load, the
response-time curve with the placement at each of its loads, the maximum rates (to saturation
and to the service level), growth and, for a closed system, the population sweep. A
`ScenarioPrediction` holds the baseline, each `compare` alternative and the tier sweep.

Reports read these and nothing else: a number a report shows is carried here, never derived
again from the scenario or the catalog. Times are milliseconds (`_ms`); a time is None where the
load is at or past saturation (there is no steady state), and the matching `saturated` flag is
True.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from diskmodel.vocabulary import easy_tier_follows_load

# --------------------------------------------------------------------------- the inputs as used


@dataclass(frozen=True, slots=True)
class Figure:
    """One hardware figure the model used, with where it comes from.

    entry: the catalog entry ("ds8800-951", "15k-300", "raid5-7+p"); key: its dotted key
    ("avg_seek_read_ms", "device_adapter.per_op_us"); provenance: the catalog's "source: ..."
    (a published document) or "basis: ..." (how it was derived or bounded).
    """

    entry: str
    key: str
    value: float
    provenance: str


@dataclass(frozen=True, slots=True)
class DefaultUsed:
    """An input the scenario left out, the value used and why (key as a dotted path with
    names: `workloads.oltp.destage_ratio`)."""

    key: str
    value: str
    basis: str


@dataclass(frozen=True, slots=True)
class SystemInput:
    """The storage system as configured."""

    model: str  # catalog name, e.g. ds8800-951
    label: str  # e.g. "IBM DS8800 2107-951"
    processor: str  # e.g. "POWER6+"
    servers: int
    processor_ways: int
    clock_ghz: float
    cache_gb: float
    nvs_gb: float
    host_ports: int
    host_adapter: str
    port_gbps: float
    da_pairs: int
    device_adapter: str


@dataclass(frozen=True, slots=True)
class RankGroupInput:
    """Identical ranks of one pool (same drive and RAID format), where they sit.

    ranks_per_da_pair / ranks_per_server: (DA pair or server index, ranks of this group there);
    capacity_gb: usable (data drives only) of the whole group; drives: physical drives of the
    group, spares included.
    """

    pool: str
    tier: str
    drive: str
    drive_label: str  # e.g. "300 GB 15K RPM, 2.5-inch SAS"
    raid: str
    count: int
    ranks_per_da_pair: tuple[tuple[int, int], ...]
    ranks_per_server: tuple[tuple[int, int], ...]
    capacity_gb: float
    drives: int
    added: bool = False


@dataclass(frozen=True, slots=True)
class PoolInput:
    """An extent pool: Easy Tier setting and tiers (fastest first) with usable capacity."""

    name: str
    easy_tier: str  # "auto" | "off"
    utilization_target: float  # what Easy Tier lets a tier's busiest station reach
    tiers: tuple[str, ...]
    tier_capacity_gb: tuple[float, ...]  # same order as tiers
    ssd_ranks_per_server: tuple[int, ...]  # SSD ranks owned by server 0, 1
    easy_tier_generation: int = 2  # 1: by I/O density only; 2: load limits, auto-rebalance
    host_tiering: bool = False  # the host places the data by its own read counts

    @property
    def placement_follows_load(self) -> bool:
        """Easy Tier keeps each tier under `utilization_target`, so where data lands depends
        on the load (the configuration's rule, `vocabulary.easy_tier_follows_load`)."""
        return easy_tier_follows_load(
            self.easy_tier == "auto", self.easy_tier_generation, len(self.tiers)
        )


@dataclass(frozen=True, slots=True)
class WorkloadInput:
    """A workload as the model used it: every default filled in, the hit ratio it used.

    load: "iops" (open, at `iops`), "queue_depth" or "users" (closed, `population`).
    read_hit_ratio_basis: "as given", or how it was projected (another cache size).
    skew: a description of the skew curve ("level 14 (high)", "points ...", "heat map x.csv").
    """

    name: str
    pool: str
    load: str
    iops: float | None
    population: int | None
    think_time_ms: float
    read_fraction: float
    read_hit_ratio: float
    read_hit_ratio_basis: str
    destage_ratio: float
    read_size_kib: float
    write_size_kib: float
    read_sequential_fraction: float
    write_sequential_fraction: float
    capacity_gb: float
    skew: str
    pin_tier: str | None
    population_basis: str = ""  # how the population was derived (LUNs x queue depth)
    backend_kib: float | None = None  # a random back-end operation's size, if not the host's
    pin: str = ""  # part of the workload pinned to a tier (media preference), described


@dataclass(frozen=True, slots=True)
class ServiceLevelInput:
    """The limits the planner sizes to (utilisation ceilings per component kind)."""

    response_time_ms: float
    read_response_time_ms: float | None
    utilization: dict[str, float]


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything the model was given, as it used it."""

    system: SystemInput
    ranks: tuple[RankGroupInput, ...]
    pools: tuple[PoolInput, ...]
    workloads: tuple[WorkloadInput, ...]
    service_level: ServiceLevelInput
    figures: tuple[Figure, ...]
    defaults: tuple[DefaultUsed, ...]
    assumptions: tuple[str, ...]  # model assumptions that apply to this configuration


# --------------------------------------------------------------------------- results at a load


@dataclass(frozen=True, slots=True)
class ComponentResult:
    """One station at the planned load: a host port, a server, a DA pair or a rank's drives.

    utilization: busy fraction of one server of the station (a rank: of one of its drives).
    service_time_ms: busy time per operation at this load (a drive with command queueing
    serves faster as its queue grows), so utilization = arrival rate x service time / servers.
    response_time_ms: wait + service of one visit.
    """

    name: str
    kind: str  # host_adapter | processor | device_adapter | rank
    utilization: float
    response_time_ms: float | None
    service_time_ms: float
    wait_time_ms: float | None
    saturated: bool


@dataclass(frozen=True, slots=True)
class IoTypeResult:
    """One I/O type of a workload: its share, response time and time per component kind."""

    io_type: str
    fraction: float
    response_time_ms: float | None
    breakdown_ms: dict[str, float | None]


@dataclass(frozen=True, slots=True)
class AllocationShare:
    """What one tier of its pool holds of a workload: data (GB) and shares of its back-end
    small I/O and MB."""

    tier: str
    capacity_gb: float
    small_io_share: float
    mb_share: float


@dataclass(frozen=True, slots=True)
class WorkloadResult:
    """One workload at the planned load (read_hit_ratio: the one the model used)."""

    name: str
    pool: str
    iops: float
    response_time_ms: float | None
    read_response_time_ms: float | None
    write_response_time_ms: float | None
    breakdown_ms: dict[str, float | None]
    io_types: tuple[IoTypeResult, ...]
    read_hit_ratio: float
    allocation: tuple[AllocationShare, ...] = ()

    @property
    def reads(self) -> bool:
        """Any reads (a read response time of None otherwise means saturated)."""
        return any(t.fraction > 0 and "read" in t.io_type for t in self.io_types)

    @property
    def writes(self) -> bool:
        """Any writes (a write response time of None otherwise means saturated)."""
        return any(t.fraction > 0 and "write" in t.io_type for t in self.io_types)


@dataclass(frozen=True, slots=True)
class RankResult:
    """Back-end load of one rank at the planned load."""

    name: str
    pool: str
    tier: str
    drive: str
    raid: str
    da_pair: int
    server: int
    backend_iops: float
    utilization: float


@dataclass(frozen=True, slots=True)
class TierResult:
    """One tier of one pool at a load: capacity, data placed there and its back-end load.

    small_io_share / mb_share: the tier's part of the pool's back-end small random I/O and of
    its MB/s (Easy Tier's placement for this load, capacity-proportional, or pinned);
    backend_iops: drive operations per second on its ranks; utilization: mean drive
    utilisation of its ranks.
    """

    pool: str
    tier: str
    ranks: int
    capacity_gb: float
    used_gb: float
    small_io_share: float
    mb_share: float
    backend_iops: float
    utilization: float


@dataclass(frozen=True, slots=True)
class SkewCurveResult:
    """A workload's skew curve as placement used it: (capacity fraction, I/O fraction) points,
    hottest first, from (0, 0) to (1, 1), for the small I/O and for the MB."""

    workload: str
    pool: str
    description: str
    small_io_points: tuple[tuple[float, float], ...]
    mb_points: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class TierPoint:
    """Where one tier stands at one load of the curve (placement follows the load)."""

    pool: str
    tier: str
    small_io_share: float
    used_gb: float
    utilization: float


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The configuration at one total host I/O rate: response time (mean over all host I/O),
    the busiest station, and the placement Easy Tier makes for this load."""

    iops: float
    response_time_ms: float | None
    saturated: bool
    busiest: str
    busiest_utilization: float
    tiers: tuple[TierPoint, ...] = ()


@dataclass(frozen=True, slots=True)
class CurveFall:
    """A stretch of the curve along which the response time falls as the load rises, and why
    (`analyses.curve_falls`): from the point at `from_iops` to the one at `to_iops`.

    placement: Easy Tier's placement differs from point to point along it (it keeps a tier at
    its utilisation target by moving data), each point's response time being that of its own
    placement; detail says how (the tiers' shares of the small I/O and the data they hold at
    both ends). A fall with `placement` false has no explanation in the model (a defect).
    """

    from_iops: float
    to_iops: float
    from_response_time_ms: float
    to_response_time_ms: float
    placement: bool
    detail: str


@dataclass(frozen=True, slots=True)
class ClosedPoint:
    """The closed system at one population, solved on its own."""

    population: int
    iops: float
    response_time_ms: float
    destage_limited: bool = False


@dataclass(frozen=True, slots=True)
class ClosedSystemResult:
    """Closed-system solution: the population given (`population_kind` "queue_depth" or
    "users"), what it settles at, and a sweep of smaller populations, each solved on its own."""

    population: int
    population_kind: str
    think_time_ms: float
    iops: float
    response_time_ms: float
    destage_limited: bool
    curve: tuple[ClosedPoint, ...]


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
class LimitResult:
    """One planning limit: its target, the value at the planned load, whether it is met there,
    and the highest total rate at which it is still met (None: met up to saturation).

    kind: "response_time", "read_response_time" or "utilization"; component: for a utilisation
    limit, the component kind it applies to and, at `max_iops`, the component reaching it.
    """

    kind: str
    label: str  # e.g. "response time ≤ 5 ms", "rank utilisation ≤ 70%"
    target: float
    value: float | None  # at the planned load (None: saturated)
    met: bool
    max_iops: float | None
    component: str | None = None


@dataclass(frozen=True, slots=True)
class ServiceLevelResult:
    """The configuration against the service level.

    met: every limit met at the planned load. max_iops: the highest total host rate at which
    every limit is met (the planning maximum); binding: the label of the limit that binds
    there. iops_at_target: the rate at which the mean response time reaches the target.
    broken: what binds at the planned load, first what binds first ("saturated: <station>"
    at a saturated load, then every limit exceeded there; empty when met).
    """

    met: bool
    max_iops: float
    binding: str
    iops_at_target: float | None
    limits: tuple[LimitResult, ...]
    broken: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GrowthPoint:
    """The configuration at its planned load times `factor` (closed: population times it).

    utilization: the busiest station's utilisation of each component kind (`host_adapter`,
    `processor`, `device_adapter`, `rank`; 1 where it saturates), what the utilisation limits
    are measured by. meets_service_level: every limit met; broken: what binds there, first
    what binds first ("saturated: <station>" past saturation, then every limit exceeded, in
    the order a rising load breaks them: `analyses.limits.binding_names`); binding: the first
    of them (None if none); label: the period ("year 3") or the factor ("\u00d7 1.5") as
    reports name the point."""

    factor: float
    iops: float
    response_time_ms: float | None
    saturated: bool
    busiest: str
    busiest_utilization: float
    meets_service_level: bool
    binding: str | None
    label: str = ""
    broken: tuple[str, ...] = ()
    utilization: dict[str, float] = field(default_factory=dict)


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


@dataclass(frozen=True, slots=True)
class BandPoint:
    """The response time at one load of the curve at the pessimistic and the optimistic corner
    (None where that corner saturates)."""

    iops: float
    pessimistic_ms: float | None
    optimistic_ms: float | None


SAMPLED_METHOD = "corners and a sample"
"""How `BandResult.method` begins when some ranges were sampled."""


@dataclass(frozen=True, slots=True)
class BandResult:
    """What the inputs given as ranges do to the answer (the baseline's).

    inputs: (dotted key, low, high) of every range. method: how the band was found. The
    prediction itself is at the central point (every range at its middle); each pair here is
    (pessimistic, optimistic): every range at its end that makes the system slower (planned
    rate high, read hit ratio low, destage ratio high, skew low), or faster, all together;
    where some ranges move the answer either way (read and sequential fractions), the slowest
    and the fastest over a sample of them (`sampled`). Response times are None where the
    corner saturates at the planned load.
    """

    inputs: tuple[tuple[str, float, float], ...]
    method: str
    response_time_ms: tuple[float | None, float | None]
    max_iops: tuple[float, float]
    planning_max_iops: tuple[float, float]
    curve: tuple[BandPoint, ...]

    @property
    def sampled(self) -> bool:
        """Whether some ranges were sampled (the band is a sample's envelope, an inner
        estimate), not only taken at their two ends."""
        return self.method.startswith(SAMPLED_METHOD)


@dataclass(frozen=True, slots=True)
class EstimateEffect:
    """One catalog estimate that moves the answer (`analyses.catalog_band`): its label, where
    it is in the catalog (`entry.key`), its value and range, and the maximum and the planned
    response time (None: saturated) with it at the low and at the high end of its range, the
    other estimates at their values."""

    label: str
    key: str
    value: float
    low: float
    high: float
    max_iops: tuple[float, float]
    response_time_ms: tuple[float | None, float | None]
    moves_max: bool  # one end moves the maximum beyond the band's threshold

    @property
    def max_spread(self) -> float:
        """How far apart the two ends put the maximum (IOPS)."""
        return abs(self.max_iops[1] - self.max_iops[0])


@dataclass(frozen=True, slots=True)
class CatalogBandResult:
    """The answer over the ranges of the catalog's unpublished figures (the baseline's;
    `analyses.catalog_band`): the maximum (low, high) and the planned response time at the
    pessimistic and the optimistic corner (None: saturated there), the estimates that move
    either by more than `threshold` of the central answer, largest effect first, how many
    estimates this configuration uses, and whether the maximum is set by an estimate (the
    bottleneck's figures are not published)."""

    threshold: float
    max_iops: tuple[float, float]
    response_time_ms: tuple[float | None, float | None]
    contributors: tuple[EstimateEffect, ...]
    estimates_tried: int
    bottleneck_estimated: bool  # some contributor moves the maximum beyond the threshold


@dataclass(frozen=True, slots=True)
class Prediction:
    """One configuration's predicted performance.

    max_iops: total host rate at which the first station saturates, with Easy Tier placing for
    that load; bottleneck: that station (bottleneck_kind its kind). destage_limited: the
    bottleneck carries destage work, so at max_iops NVS fills and writes wait.
    At the planned load (the workloads' `iops`, or the closed system's throughput):
    planned_iops, response_time_ms, components, workloads, ranks, tiers, nvs_full.
    curve: response time against total rate up to max_iops, each point with its own placement;
    the planned point lies on it. service_level: the planning limits and the planning maximum.
    curve_falls: where the curve's response time falls as the load rises, and why.
    """

    name: str
    system: str
    inputs: Inputs
    max_iops: float
    bottleneck: str
    bottleneck_kind: str
    destage_limited: bool
    planned_iops: float
    saturated: bool
    response_time_ms: float | None
    nvs_full: bool
    components: tuple[ComponentResult, ...]
    workloads: tuple[WorkloadResult, ...]
    ranks: tuple[RankResult, ...]
    tiers: tuple[TierResult, ...]
    skew_curves: tuple[SkewCurveResult, ...]
    curve: tuple[CurvePoint, ...]
    service_level: ServiceLevelResult
    growth: tuple[GrowthPoint, ...] = ()
    closed: ClosedSystemResult | None = None
    application: ApplicationResult | None = None
    logs: tuple[LogResult, ...] = ()
    band: BandResult | None = None
    notes: tuple[str, ...] = field(default=())
    curve_falls: tuple[CurveFall, ...] = ()
    catalog_band: CatalogBandResult | None = None


@dataclass(frozen=True, slots=True)
class TierSweepPoint:
    """The baseline with `added` more ranks of one drive type in one pool.

    error: why this point could not be solved (e.g. the ranks do not fit the DA pairs), else
    None and the figures below are meaningful. tier_small_io_share: the swept drive's tier's
    share of the pool's small random back-end I/O at the planned load. da_pair_spread: how
    that tier's ranks in the pool sit on the DA pairs (an uneven spread puts more of the
    tier's I/O on one pair).
    """

    added: int
    max_iops: float
    bottleneck: str
    planning_max_iops: float
    response_time_ms: float | None
    saturated: bool
    error: str | None = None
    tier_small_io_share: float = 0.0
    da_pair_spread: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CalibratedParameter:
    """One parameter a calibration fitted (`scenario.calibration.FittedParameter`): its name,
    kind ("workload", "system", "catalog"), the fitted value and its 95% interval (None: not
    identified, and why), the range it was fitted within, where the fit started, and the
    value the scenario (or its catalog) now has where that differs from the fitted one
    (`now`; None: the same, or not identified)."""

    name: str
    kind: str
    value: float
    low: float | None
    high: float | None
    identified: bool
    why: str
    bounds: tuple[float, float]
    initial: float | None
    now: float | None


@dataclass(frozen=True, slots=True)
class CalibrationFigure:
    """One measured figure against the calibrated model: the interval, what it measures
    (`scope`), the figure (an interval column: `response_ms`, `rank_utilization`, ...), its
    label and unit, as measured, the model's value (None: saturated), the relative error,
    model / measured - 1, and whether it is a response time (`gated`: the quality gate's
    threshold is on the response times)."""

    interval: str
    scope: str
    figure: str
    label: str
    unit: str
    measured: float
    model: float | None
    error: float | None
    gated: bool


@dataclass(frozen=True, slots=True)
class CalibrationFinding:
    """One thing the calibration's quality gate found: about what, the likely cause, the
    remedy, and whether it fails the gate (else a warning)."""

    subject: str
    cause: str
    remedy: str
    fails: bool


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    """The calibration a scenario carries (`calibration:`, written by `diskmodel calibrate`):
    the interval data fitted to, the intervals, the model evaluations it took, the rms error
    over every measured figure, the quality gate (its threshold on the rms response-time
    error, its verdict, that error and the worst interval's, its findings), what was fitted
    and every measured figure against the model. Provenance: it changes no prediction."""

    measured: str
    intervals: tuple[str, ...]
    evaluations: int
    rms_error: float | None
    threshold: float
    passed: bool
    response_rms_error: float | None
    worst_error: float | None
    worst: str
    findings: tuple[CalibrationFinding, ...]
    fitted: tuple[CalibratedParameter, ...]
    figures: tuple[CalibrationFigure, ...]


@dataclass(frozen=True, slots=True)
class ScenarioPrediction:
    """A scenario's baseline, its `compare` alternatives (same order), its tier sweep, its
    sizing search (`analyses.size`) and the calibration it carries (`diskmodel calibrate`)."""

    scenario: str
    description: str
    baseline: Prediction
    alternatives: tuple[Prediction, ...] = ()
    tier_sweep: tuple[TierSweepPoint, ...] = ()
    sizing: SizingResult | None = None
    calibration: CalibrationResult | None = None

    @property
    def configurations(self) -> tuple[Prediction, ...]:
        """Baseline first, then the alternatives."""
        return (self.baseline, *self.alternatives)


# --------------------------------------------------------------------------- sizing


Choice = tuple[tuple[str, float | str], ...]
"""A sizing configuration: (what was chosen, how many, or which model) for every choice."""


def no_more(a: Choice, b: Choice) -> bool:
    """Configuration `a` has no more of any choice than `b` (and the same model); models are
    alternatives, not quantities, so only equal ones compare."""
    return all(
        x == y if isinstance(x, str) or isinstance(y, str) else x <= y
        for (_, x), (_, y) in zip(a, b, strict=True)
    )


@dataclass(frozen=True, slots=True)
class SizingCandidate:
    """One configuration the sizing search tried.

    choice: (what was chosen, how many): rank groups as "pool: drive raid", "model" (the
    catalog name), "da_pairs", "host_ports", "processor_ways", "cache_gb". error: why it is
    not possible (the hardware or the data do not fit), else None and the rest is meaningful.
    drives, power_w: installed drives of every pool and their power (catalog figures); price:
    by the scenario's prices, None without them.
    response_time_ms: at the planned load (None: saturated). meets: the service level met now
    and in every growth period; broken_in: the first period that breaks it ("now" or the growth
    label) and binding: the limit that breaks there. upgrade: it only adds to the current
    configuration (no rank, DA pair or port removed). response_by_period_ms: the response time
    in each period ("now" first; None: saturated there). uneven: each rank kind whose ranks
    cannot be spread evenly over the DA pairs or the servers, with its counts ("" when every
    kind is even), e.g. "ssd-300: DA 2/1, servers 2/1" (ranks per DA pair from 0, per
    server; the RAID format added where a drive comes in two).
    """

    choice: Choice
    error: str | None
    drives: int = 0
    power_w: float = 0.0
    price: float | None = None
    response_time_ms: float | None = None
    busiest: str = ""
    busiest_utilization: float = 0.0
    meets: bool = False
    broken_in: str | None = None
    binding: str | None = None
    upgrade: bool = False
    response_by_period_ms: tuple[float | None, ...] = ()
    uneven: str = ""


@dataclass(frozen=True, slots=True)
class SizingPruned:
    """A configuration the sizing search did not solve: `bound` names the bound from the
    queueing core that proved it can be neither on the front nor the answer, `detail` gives
    its figures (analyses/size_bounds.py)."""

    choice: Choice
    bound: str
    detail: str


@dataclass(frozen=True, slots=True)
class SizingResult:
    """`diskmodel size`: every configuration tried, the current one first.

    objective: "price" (the scenario's prices) or "drives" (no prices: drive count, then power).
    front: indices of the Pareto front (cost against response time at the planned load, over
    the configurations that are possible and not saturated). cheapest: the cheapest meeting the
    service level now and in every growth period (None: none does); cheapest_upgrade: the same
    among upgrades of the current configuration. periods: "now" and the growth labels.
    method: how the space was searched. service_level: the limits every period must meet.
    pruned: the configurations not solved, each with the bound that let it be skipped
    (`candidates` holds the ones solved; together they are every configuration offered).
    """

    scenario: str
    objective: str
    periods: tuple[str, ...]
    candidates: tuple[SizingCandidate, ...]
    front: tuple[int, ...]
    cheapest: int | None
    cheapest_upgrade: int | None
    method: str
    service_level: tuple[str, ...] = ()
    pruned: tuple[SizingPruned, ...] = ()
