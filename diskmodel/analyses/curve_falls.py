"""Where a curve's response time falls as its load rises, and why (issue 33).

A response time that falls while the load rises reads as a defect unless the report says why.
Along an open curve it can fall for one reason the model knows: Easy Tier's placement is made
for each load (`model.layout`), and past the load at which a tier reaches its utilisation
target, every point has a placement of its own; a point's response time is that of its own
placement, which can be lower than the previous point's (in ent-nearline-growth the
enterprise tier, held at its 80% target, gives data to the nearline tier as the load rises,
and its drives, holding less, seek less). `falls` finds every such stretch in the curve's
points, from plain data (no model call): consecutive points whose response time falls, joined
into one stretch, each said to follow a placement change when the tiers' shares of the small
I/O or the data they hold differ from point to point along it. A fall without one has no
explanation and is reported as such; the tests hold every shipped curve to having none.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import CurveFall, CurvePoint, TierPoint

SAME = 1e-9
"""Relative change below which a response time, a share or a capacity counts as unchanged."""


def falls(curve: Sequence[CurvePoint]) -> tuple[CurveFall, ...]:
    """Every stretch of `curve` (ascending load) along which the response time falls."""
    out: list[CurveFall] = []
    start: int | None = None
    moved = True
    for i in range(1, len(curve) + 1):
        falling = i < len(curve) and _falls(curve[i - 1], curve[i])
        if falling:
            if start is None:
                start, moved = i - 1, True
            moved = moved and _placement_changed(curve[i - 1], curve[i])
            continue
        if start is not None:
            out.append(_stretch(curve[start], curve[i - 1], moved))
            start = None
    return tuple(out)


def _falls(a: CurvePoint, b: CurvePoint) -> bool:
    if a.response_time_ms is None or b.response_time_ms is None or b.iops <= a.iops:
        return False
    return b.response_time_ms < a.response_time_ms * (1 - SAME)


def _shares(p: CurvePoint) -> dict[tuple[str, str], TierPoint]:
    return {(t.pool, t.tier): t for t in p.tiers}


def _placement_changed(a: CurvePoint, b: CurvePoint) -> bool:
    before, after = _shares(a), _shares(b)
    if not before or set(before) != set(after):
        return bool(before or after)
    return any(
        abs(after[k].small_io_share - t.small_io_share) > SAME
        or abs(after[k].used_gb - t.used_gb) > SAME * max(t.used_gb, 1.0)
        for k, t in before.items()
    )


def _stretch(a: CurvePoint, b: CurvePoint, moved: bool) -> CurveFall:
    assert a.response_time_ms is not None
    assert b.response_time_ms is not None
    return CurveFall(
        from_iops=a.iops,
        to_iops=b.iops,
        from_response_time_ms=a.response_time_ms,
        to_response_time_ms=b.response_time_ms,
        placement=moved,
        detail=_moves(a, b) if moved else "no placement change: unexplained",
    )


def _moves(a: CurvePoint, b: CurvePoint) -> str:
    """ "pool p: enterprise 92.7% of the small I/O and 33,600 GB -> 85.8% and 25,032 GB; ..."
    for every tier whose share or data changes between the stretch's ends."""
    before, after = _shares(a), _shares(b)
    parts = []
    for key, t in before.items():
        u = after.get(key)
        if u is None or (
            abs(u.small_io_share - t.small_io_share) <= SAME
            and abs(u.used_gb - t.used_gb) <= SAME * max(t.used_gb, 1.0)
        ):
            continue
        parts.append(
            f"pool {t.pool}, {t.tier}: {100 * t.small_io_share:.1f}% of the small I/O and "
            f"{t.used_gb:,.0f} GB -> {100 * u.small_io_share:.1f}% and {u.used_gb:,.0f} GB"
        )
    return "; ".join(parts)
