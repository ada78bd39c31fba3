"""The calibration a scenario carries (`diskmodel calibrate`), as the report shows it: the
parameters fitted, every measured figure against the model, the quality gate's findings."""

from __future__ import annotations

from dataclasses import dataclass


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
