"""How a predicted result is said: the table cells (a response time or "saturated", a
utilisation with its warning level) and the sentences (headroom, the bottleneck, a limit's
margin, the catalog band, an uneven spread) the HTML report's tables and the terminal share.

Reads `Prediction`s only; the only arithmetic is presentation (a headroom as the ratio of two
carried rates, a margin as the difference between a target and a carried value).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from diskmodel.prediction import CatalogBandResult, EstimateEffect, LimitResult, Prediction
from diskmodel.report import display, spread
from diskmodel.report.charts import CRITICAL_UTILIZATION, WARN_UTILIZATION
from diskmodel.report.view import Cell

DASH = Cell("–", "num")


def ms_cell(value: float | None) -> Cell:
    """A response time, or "saturated" where there is none."""
    return Cell(display.milliseconds(value) if value is not None else display.SATURATED_TEXT, "num")


def utilization_cell(value: float | None) -> Cell:
    if value is None:
        return DASH
    if value >= CRITICAL_UTILIZATION:
        return Cell(display.percent(value), "num", "critical")
    if value >= WARN_UTILIZATION:
        return Cell(display.percent(value), "num", "warning")
    return Cell(display.percent(value), "num")


def headroom_text(maximum: float, planned: float) -> str:
    """How much more load than planned fits under `maximum` ("64%"), or "none"."""
    if planned <= 0 or maximum <= planned:
        return "none"
    if not math.isfinite(maximum):
        return "unlimited"
    return display.percent(maximum / planned - 1.0, 0)


def bottleneck_text(p: Prediction) -> str:
    """The bottleneck as a planner reads it: "device adapter pair 1", "host port 3"."""
    if p.bottleneck_kind == "device_adapter":
        return p.bottleneck.replace("DA pair", "device adapter pair")
    return p.bottleneck


def _estimate_range(effect: EstimateEffect) -> str:
    """ "10-40 us", "1,000-4,000 MB/s", "1-64": an estimate's range in its own unit."""
    key = effect.key.rsplit(".", 1)[-1]
    units = (("_us_per_kib", " us per KiB"), ("_us", " us"), ("_ms", " ms"), ("_mb_s", " MB/s"))
    unit = next((u for suffix, u in units if key.endswith(suffix)), "")
    if key.endswith("_fraction"):
        return f"{display.percent(effect.low)}-{display.percent(effect.high)}"
    return f"{display.number(effect.low)}-{display.number(effect.high)}{unit}"


def catalog_band_sentence(band: CatalogBandResult) -> str | None:
    """ "Over the ranges of the catalog's unpublished figures the maximum lies between ...;
    most of the spread comes from ... (estimated, 10-40 us) ..." (None: no estimate moves
    the answer beyond the band's threshold)."""
    if not band.contributors:
        return None
    low, high = band.max_iops
    top, *rest = band.contributors
    sentence = (
        f"Over the ranges of the catalog's unpublished figures the maximum lies between "
        f"{display.rate_3sf(low)} and {display.rate_3sf(high)} IOPS; most of the spread comes "
        f"from the {top.label} (estimated, {_estimate_range(top)})"
    )
    if rest:
        sentence += ", then the " + ", the ".join(
            f"{c.label} ({_estimate_range(c)})" for c in rest[:2]
        )
    sentence += "."
    if band.bottleneck_estimated:
        sentence += " The bottleneck is set by an estimate."
    return sentence


def population_count(p: Prediction) -> tuple[int, str]:
    """A closed configuration's load as a planner states it: (count, "users" or "queue
    depth"). For an application it is its users, not the I/O streams the storage is solved
    with (a user with several I/Os in flight is several streams: `closed.population`)."""
    assert p.closed is not None
    if p.application is not None:
        return p.application.users, "users"
    return p.closed.population, p.closed.population_kind.replace("_", " ")


def margin_text(limit: LimitResult) -> str:
    """ "met, 1.2 ms to spare", "not met, 4.1 points over", "saturated": a limit at the
    planned load."""
    if limit.value is None:
        return "not met: saturated"
    gap = limit.target - limit.value
    if limit.kind == "utilization":
        amount = f"{display.number(round(abs(gap) * 100, 1))} points"
    else:
        amount = f"{display.milliseconds(abs(gap))} ms"
    return f"met, {amount} to spare" if limit.met else f"not met, {amount} over"


def limit_value_text(limit: LimitResult) -> str:
    if limit.value is None:
        return display.SATURATED_TEXT
    if limit.kind == "utilization":
        return display.percent(limit.value)
    return f"{display.milliseconds(limit.value)} ms"


def spread_note(per_pair: Sequence[int]) -> str:
    """ "uneven: DA pairs 2/1" where a tier's ranks sit unevenly on the DA pairs (the pair
    with more carries more of the tier's I/O; `spread.uneven_text`), else empty."""
    text = spread.uneven_text(per_pair)
    return f"uneven: {text}" if text else ""


SMALLEST_MS = 0.001
"""Times below a microsecond are shown as "<0.001": never as 0 (they are not 0)."""


def ms_text(value: float | None) -> str:
    """A time in the terminal: "saturated" where there is none, never 0 for a time that is
    not 0."""
    if value is None:
        return display.SATURATED_TEXT
    if 0 < value < SMALLEST_MS:
        return f"<{SMALLEST_MS:g}"
    return display.milliseconds(value)
