"""A published figure against the product's value: the error, and whether it is within the
tolerance (`judge`), with the labels the page shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.validation.manifest import FigureSpec, figure_number, unit_suffix


@dataclass(frozen=True)
class Outcome:
    """A figure against the product: the predicted value (an interval for a band), the error
    (0 inside the tolerance's reach for a range or band; negative: the model is low) and
    whether it is within the tolerance."""

    spec: FigureSpec
    predicted: tuple[float, float]
    error: float
    ok: bool
    bottleneck: str | None

    @property
    def status(self) -> str:
        if self.spec.kind == "input":
            return "input"
        if self.spec.kind == "fitted":
            return "fitted" if self.ok else "FITTED, NOT REPRODUCED"
        if self.ok:
            return "MET (unexpectedly)" if self.spec.known_miss else "met"
        return "missed (known)" if self.spec.known_miss else "MISSED"

    @property
    def predicted_label(self) -> str:
        low, high = self.predicted
        unit = unit_suffix(self.spec.unit)
        if low == high:
            return f"{figure_number(low)}{unit}"
        return f"{figure_number(low)}–{figure_number(high)}{unit}"

    @property
    def error_label(self) -> str:
        if self.spec.kind == "input":
            return "–"
        if self.error == 0:
            return "inside"
        return f"{self.error:+.1%}"


def judge(spec: FigureSpec, predicted: tuple[float, float], bottleneck: str | None) -> Outcome:
    """Compare a prediction (a value, or an interval for a band) with the published figure.

    A single prediction must lie in the accepted interval: published x (1 -/+ relative) (a
    published range widened so at each end), or `within`. A band (several configurations)
    must reach the published value once widened by the relative tolerance at each edge.
    The error is the prediction's relative distance from the accepted interval's published
    value (negative: the model is low; 0 inside a range or a band that reaches it).
    """
    if spec.kind == "input":
        return Outcome(spec, predicted, 0.0, True, bottleneck)
    low, high = predicted
    tol = spec.tolerance
    published = spec.published
    if spec.band:
        assert tol.relative is not None, "a band takes a relative tolerance"
        value = _centre(published)
        ok = low * (1 - tol.relative) <= value <= high * (1 + tol.relative)
        # the band's nearer edge against the published value
        error = 0.0 if low <= value <= high else (low if value < low else high) / value - 1.0
        return Outcome(spec, predicted, error, ok, bottleneck)
    if tol.within is not None:
        accept = tol.within
    else:
        assert tol.relative is not None
        lo, hi = published if isinstance(published, tuple) else (published, published)
        accept = (lo * (1 - tol.relative), hi * (1 + tol.relative))
    ok = accept[0] * (1 - 1e-12) <= low and high <= accept[1] * (1 + 1e-12)
    if isinstance(published, tuple):
        error = _distance(predicted, published)
    else:
        error = low / published - 1.0
    return Outcome(spec, predicted, error, ok, bottleneck)


def _centre(published: float | tuple[float, float]) -> float:
    return (published[0] + published[1]) / 2 if isinstance(published, tuple) else published


def _distance(predicted: tuple[float, float], accept: tuple[float, float]) -> float:
    """Relative distance of the predicted interval from the accepted one (negative: low)."""
    low, high = predicted
    if high < accept[0]:
        return high / accept[0] - 1.0
    if low > accept[1]:
        return low / accept[1] - 1.0
    return 0.0
