"""The Easy Tier charts of a report, and the numbers each is drawn from: for each Easy Tier
pool of two or more tiers, its skew curve with the tiers' capacities, and each tier's share
of its I/O against the load (`diskmodel.report.chart_views` places them among the others).
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from diskmodel.prediction import Prediction, TierResult
from diskmodel.report import charts
from diskmodel.report.chart_svg import render
from diskmodel.report.view import Chart
from diskmodel.vocabulary import TIERS


def tiering_charts(index: int, p: Prediction) -> list[Chart]:
    """Skew and placement charts of each Easy Tier pool of two or more tiers."""
    out: list[Chart] = []
    for pool in p.inputs.pools:
        if pool.easy_tier != "auto" or len(pool.tiers) < 2:
            continue
        tiers = sorted(
            (t for t in p.tiers if t.pool == pool.name and t.used_gb > 0),
            key=lambda t: TIERS.index(t.tier) if t.tier in TIERS else 99,
        )
        key = f"chart-skew-{index}-{len(out)}"
        if len(tiers) >= 2:
            out.append(_skew_chart(key, p, pool.name, tiers))
        placement = _placement_chart(f"chart-placement-{index}-{len(out)}", p, pool.name)
        if placement is not None:
            out.append(placement)
    return out


def _skew_chart(key: str, p: Prediction, pool: str, tiers: Sequence[TierResult]) -> Chart:
    total = sum(t.used_gb for t in tiers)
    spans = []
    start = 0.0
    for t in tiers:
        end = start + t.used_gb / total
        spans.append(charts.TierSpan(t.tier, start, min(end, 1.0), t.small_io_share))
        start = end
    curve = next((s for s in p.skew_curves if s.pool == pool), None)
    points = thinned(curve.small_io_points) if curve is not None else ()
    c = [pt[0] for pt in points]
    f = [pt[1] for pt in points]
    title = f"Easy Tier: skew and tiers of pool {pool} ({p.name})"
    svg = render(key, charts.skew_chart(c, f, spans, title=title))
    about = (
        f"The curve is the skew of workload {curve.workload} ({curve.description}): the hottest "
        "fraction of its data (across) receives the fraction of its small random back-end I/O "
        "(up)."
        if curve is not None
        else "The pool's workloads have no skew curve (uniform I/O)."
    )
    return Chart(
        key,
        title,
        f"{about} Easy Tier places the hottest data on the fastest tier, up to its capacity "
        "and the load it may carry; each band is the data one tier holds at the planned load, "
        "and the legend gives its share of the I/O there.",
        Markup(svg),
    )


SKEW_POINTS_DRAWN = 400
"""A skew curve from a heat map has a point per extent (tens of thousands); the chart draws at
most this many, evenly spaced along the curve, ends kept (a 7-inch line shows no more)."""


def thinned(points: Sequence[tuple[float, float]]) -> Sequence[tuple[float, float]]:
    if len(points) <= SKEW_POINTS_DRAWN:
        return points
    step = (len(points) - 1) / (SKEW_POINTS_DRAWN - 1)
    return [points[round(i * step)] for i in range(SKEW_POINTS_DRAWN)]


def _placement_chart(key: str, p: Prediction, pool: str) -> Chart | None:
    points = [pt for pt in p.curve if any(t.pool == pool for t in pt.tiers)]
    if len(points) < 2:
        return None
    tiers: list[str] = []
    for pt in points:
        tiers.extend(t.tier for t in pt.tiers if t.pool == pool and t.tier not in tiers)
    tiers.sort(key=lambda t: TIERS.index(t) if t in TIERS else 99)
    shares = [
        (
            tier,
            [
                next((t.small_io_share for t in pt.tiers if t.pool == pool and t.tier == tier), 0.0)
                for pt in points
            ],
        )
        for tier in tiers
    ]
    title = f"Easy Tier: placement against load, pool {pool} ({p.name})"
    planned = p.planned_iops if p.closed is None else None
    svg = render(
        key, charts.placement_chart([pt.iops for pt in points], shares, planned, title=title)
    )
    return Chart(
        key,
        title,
        "Each tier's share of the pool's small random back-end I/O at each load of the response "
        "curve. Easy Tier keeps every tier below its utilisation target: as the load grows, the "
        "fast tier fills to that target and the rest of the hot I/O stays on the slower tiers.",
        Markup(svg),
    )
