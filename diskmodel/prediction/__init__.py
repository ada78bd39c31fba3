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

One module a part: `inputs`, `operating_point` (one load), `curve` (loads rising),
`limits` (service level, growth), `application` (transactions, logs), `bands`, `calibration`,
`sizing`; here the whole answers, `Prediction` and `ScenarioPrediction`, and every record
re-exported: `from diskmodel.prediction import X` is how the report reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from diskmodel.prediction.application import (
    ApplicationResult,
    LogResult,
    LogStripingRow,
    TransactionPoint,
)
from diskmodel.prediction.bands import (
    SAMPLED_METHOD,
    BandPoint,
    BandResult,
    CatalogBandResult,
    EstimateEffect,
)
from diskmodel.prediction.calibration import (
    CalibratedParameter,
    CalibrationFigure,
    CalibrationFinding,
    CalibrationResult,
)
from diskmodel.prediction.curve import (
    ClosedPoint,
    ClosedSystemResult,
    CurveFall,
    CurvePoint,
    TierPoint,
)
from diskmodel.prediction.inputs import (
    DefaultUsed,
    Figure,
    Inputs,
    PoolInput,
    RankGroupInput,
    ServiceLevelInput,
    SystemInput,
    WorkloadInput,
)
from diskmodel.prediction.limits import GrowthPoint, LimitResult, ServiceLevelResult
from diskmodel.prediction.operating_point import (
    AllocationShare,
    ComponentResult,
    IoTypeResult,
    RankResult,
    RmfResult,
    SkewCurveResult,
    TierResult,
    WorkloadResult,
)
from diskmodel.prediction.sizing import Choice, SizingCandidate, SizingPruned, SizingResult, no_more

__all__ = [
    "SAMPLED_METHOD",
    "AllocationShare",
    "ApplicationResult",
    "BandPoint",
    "BandResult",
    "CalibratedParameter",
    "CalibrationFigure",
    "CalibrationFinding",
    "CalibrationResult",
    "CatalogBandResult",
    "Choice",
    "ClosedPoint",
    "ClosedSystemResult",
    "ComponentResult",
    "CurveFall",
    "CurvePoint",
    "DefaultUsed",
    "EstimateEffect",
    "Figure",
    "GrowthPoint",
    "Inputs",
    "IoTypeResult",
    "LimitResult",
    "LogResult",
    "LogStripingRow",
    "PoolInput",
    "Prediction",
    "RankGroupInput",
    "RankResult",
    "RmfResult",
    "ScenarioPrediction",
    "ServiceLevelInput",
    "ServiceLevelResult",
    "SizingCandidate",
    "SizingPruned",
    "SizingResult",
    "SkewCurveResult",
    "SystemInput",
    "TierPoint",
    "TierResult",
    "TierSweepPoint",
    "TransactionPoint",
    "WorkloadInput",
    "WorkloadResult",
    "no_more",
]


@dataclass(frozen=True, slots=True)
class Prediction:
    """One configuration's predicted performance.

    max_iops: total host rate at which the first station saturates, with Easy Tier placing for
    that load, or a z/OS device queue before it; bottleneck: that station (bottleneck_kind its
    kind) or that LCU's device queue (bottleneck_kind `device_queue`). destage_limited: the
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
