"""The record of a calibration a scenario carries (`calibration:`), as `diskmodel calibrate`
writes it: what was fitted, to which measured intervals, the quality gate's verdict, and every
measured figure beside the calibrated model's value of it.

It is provenance, not an input: nothing in it changes a prediction. The report shows it
(measured against model per interval, the residuals, what was fitted with its 95% interval,
the gate's verdict) and the JSON result carries it (`calibration`). The model's values are
those of the calibration; a scenario edited afterwards no longer gives them.

`FIGURES` names the figures a calibration fits to (the interval columns of the same names):
one home for their labels and units, which the report shows. The report says when the
scenario's value of a fitted workload parameter differs from the record's
(`report.calibration_view`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from diskmodel.scenario.values import Model, printable_text


@dataclass(frozen=True)
class Figure:
    """A measured figure calibration can fit to: what it is called in reports, its unit, and
    what it measures (`scope`: one workload's I/O, the ranks of the workload's pool, or the
    whole system; a pool's or the system's figure counts once per interval however many rows
    carry it)."""

    label: str
    unit: str
    scope: str  # "workload" | "pool" | "system"


FIGURES = {
    "response_ms": Figure("response", "ms", "workload"),
    "read_response_ms": Figure("read response", "ms", "workload"),
    "write_response_ms": Figure("write response", "ms", "workload"),
    "rank_utilization": Figure("rank utilisation", "", "pool"),
    "backend_iops": Figure("back-end rate", "ops/s", "pool"),
    "da_utilization": Figure("DA utilisation", "", "system"),
    "host_port_utilization": Figure("host port utilisation", "", "system"),
}
"""What calibration fits to (the interval columns of the same names)."""
RESPONSE_FIGURES = frozenset(k for k, f in FIGURES.items() if f.scope == "workload")
"""The response times: the figures a planner sizes by (the quality gate's threshold is on
these)."""

FigureName = Literal[
    "response_ms",
    "read_response_ms",
    "write_response_ms",
    "rank_utilization",
    "backend_iops",
    "da_utilization",
    "host_port_utilization",
]
"""The keys of `FIGURES` (a test keeps the two equal)."""

Text = Annotated[str, Field(max_length=4000), AfterValidator(printable_text)]
Label = Annotated[str, Field(min_length=1, max_length=400), AfterValidator(printable_text)]
MAX_FIGURES = 10_000
"""Measured figures a record holds at most (a calibration is bounded far below: the work
bound allows a few hundred intervals' figures)."""


class FittedParameter(Model):
    """One parameter the calibration fitted."""

    name: Label = Field(
        description="what was fitted: a workload's destage_ratio, skew.level, read_hit_ratio "
        "or pin.io_share, the system's front_end_latency_us, or a catalog estimate's path"
    )
    kind: Literal["workload", "system", "catalog"] = Field(
        description="a workload's parameter, the system's, or a catalog estimate"
    )
    value: float = Field(description="the fitted value")
    low: float | None = Field(None, description="its 95% interval's low end (identified only)")
    high: float | None = Field(None, description="its 95% interval's high end")
    identified: bool = Field(description="whether the data pin it (else it was left as written)")
    why: Text = Field("", description="why it is not identified")
    bounds: tuple[float, float] = Field(description="the range it was fitted within")
    initial: float | None = Field(None, description="where the fit started (a catalog value)")


class MeasuredFigure(Model):
    """One measured figure beside the calibrated model's value of it."""

    interval: Label = Field(description="the interval (as calibrate names it)")
    scope: Label = Field(description="what it measures: a workload, a pool, or the system")
    figure: FigureName = Field(description="the figure (the interval column of that name)")
    measured: float = Field(gt=0, description="as measured")
    model: float | None = Field(
        None, ge=0, description="the calibrated model's value (null: its point saturates)"
    )


class GateFinding(Model):
    """One thing the quality gate found."""

    subject: Label = Field(description="about what: the fit, an interval, a parameter")
    cause: Text = Field(description="what was found and its likely cause")
    remedy: Text = Field(description="what to do")
    fails: bool = Field(description="whether it fails the gate (else a warning)")


class GateRecord(Model):
    """The calibration's quality gate (docs/measured.md, "The quality gate")."""

    threshold: float = Field(gt=0, le=1, description="the largest rms response-time error")
    passed: bool = Field(description="no finding fails it")
    response_rms_error: float | None = Field(
        None, ge=0, description="rms relative error of the measured response times"
    )
    worst_error: float | None = Field(None, description="the worst response-time error")
    worst: Text = Field("", description="where the worst error is (interval, scope)")
    findings: list[GateFinding] = Field([], max_length=500, description="what it found")


class CalibrationRecord(Model):
    """What `diskmodel calibrate` did to make this scenario: provenance, not an input."""

    measured: Label = Field(description="the interval data fitted to (its file name)")
    intervals: list[Label] = Field(min_length=1, max_length=1000, description="the intervals")
    evaluations: int = Field(ge=0, description="model evaluations the calibration made")
    rms_error: float | None = Field(
        None, ge=0, description="rms relative error over every measured figure"
    )
    fitted: list[FittedParameter] = Field(max_length=1000, description="what was fitted")
    figures: list[MeasuredFigure] = Field(
        max_length=MAX_FIGURES, description="every measured figure against the model"
    )
    gate: GateRecord = Field(description="the quality gate's verdict")
