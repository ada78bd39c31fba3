"""The calibration a scenario carries, for the report: its record (`scenario.calibration`) as
plain prediction data, with what the scenario holds now beside what was fitted.

A calibrated scenario may be edited afterwards (a destage ratio changed by hand, the fitted
catalog file dropped): its record's measured-against-model figures are then not what this
scenario gives. So each fitted parameter the calibration identified is looked up in the
scenario as it is (a workload's destage ratio, skew level, hit ratio or pinned share, the
system's front-end latency) or in its catalog (an estimate, by its path), and where it
differs from the fitted value by more than the record's rounding, `now` carries it and the
report says so.
"""

from __future__ import annotations

from diskmodel.analyses.catalog_band import estimates
from diskmodel.catalog import Catalog
from diskmodel.configuration import Configuration
from diskmodel.prediction import (
    CalibratedParameter,
    CalibrationFigure,
    CalibrationFinding,
    CalibrationResult,
)
from diskmodel.scenario import Scenario
from diskmodel.scenario.calibration import FIGURES, RESPONSE_FIGURES, FittedParameter

SAME = 1e-3
"""Values within this relative difference (or 1e-4 absolute) are the same: the record keeps
six significant digits, the calibrated file a destage ratio or a share to four decimals, a
skew level to three and the front-end latency to 0.1 us."""


def calibration_result(
    scenario: Scenario, config: Configuration, catalog: Catalog
) -> CalibrationResult | None:
    """The scenario's calibration record as prediction data (module docstring), or None;
    `config` is its baseline resolved with `catalog`."""
    record = scenario.calibration
    if record is None:
        return None
    in_catalog = {e.path: e.value for e in estimates(config, catalog)}
    fitted = tuple(
        CalibratedParameter(
            p.name,
            p.kind,
            p.value,
            p.low,
            p.high,
            p.identified,
            p.why,
            p.bounds,
            p.initial,
            _changed(p, _now(p, scenario, in_catalog)),
        )
        for p in record.fitted
    )
    figures = tuple(
        CalibrationFigure(
            f.interval,
            f.scope,
            f.figure,
            FIGURES[f.figure].label,
            FIGURES[f.figure].unit,
            f.measured,
            f.model,
            None if f.model is None else f.model / f.measured - 1.0,
            f.figure in RESPONSE_FIGURES,
        )
        for f in record.figures
    )
    gate = record.gate
    return CalibrationResult(
        measured=record.measured,
        intervals=tuple(record.intervals),
        evaluations=record.evaluations,
        rms_error=record.rms_error,
        threshold=gate.threshold,
        passed=gate.passed,
        response_rms_error=gate.response_rms_error,
        worst_error=gate.worst_error,
        worst=gate.worst,
        findings=tuple(
            CalibrationFinding(f.subject, f.cause, f.remedy, f.fails) for f in gate.findings
        ),
        fitted=fitted,
        figures=figures,
    )


def _now(p: FittedParameter, scenario: Scenario, in_catalog: dict[str, float]) -> float | None:
    """The value the scenario (or its catalog) now gives the parameter `p` names, if it gives
    one plainly (not as a range, not as points)."""
    if p.kind == "catalog":
        return in_catalog.get(p.name)
    owner, _, key = p.name.partition(".")
    if p.kind == "system":
        value = getattr(scenario.system, key, None)
        return value if isinstance(value, float | int) else None
    workload = next((w for w in scenario.workloads if w.name == owner), None)
    if workload is None:
        return None
    if key == "skew.level":
        return None if workload.skew is None else workload.skew.level_value
    if key == "pin.io_share":
        share = None if workload.pin is None else workload.pin.io_share
        return share if isinstance(share, float | int) else None
    value = getattr(workload, key, None)
    return value if isinstance(value, float | int) else None


def _changed(p: FittedParameter, now: float | None) -> float | None:
    """`now` where the parameter was identified and the scenario now differs from it."""
    if not p.identified or now is None:
        return None
    return None if abs(now - p.value) <= max(SAME * abs(p.value), 1e-4) else float(now)
