"""Bracket searches by regula falsi with the Illinois modification.

`highest_passing`: the highest value that passes a test, from a bracket: `lo` passes and `hi`
does not. `fixed_point_between`: x = g(x) inside a bracket where h(x) = g(x) - x changes sign.

Used where a load is searched for against a smooth figure that decides pass or fail (a tier's
headroom under Easy Tier's utilisation target, a service-level limit): regula falsi on the
figure with the Illinois modification (Dowell and Jarratt 1971), which halves the figure kept
at an end that stays put twice so that both ends move, a probe kept at least 1e-3 of the
bracket inside it, and plain halving where the figure is unknown (no steady state) or has the
wrong sign. The bracket always holds: the answer is the last value that passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Solution = TypeVar("Solution")


def highest_passing(
    probe: Callable[[float], tuple[bool, float | None]],
    lo: float,
    f_lo: float,
    hi: float,
    f_hi: float | None,
    *,
    rel_tol: float = 1e-4,
    max_probes: int | None = None,
) -> float:
    """Narrow [lo, hi] until it is within `rel_tol` of hi (or after `max_probes` probes) and
    return its lower end. `probe(x)` says whether x passes and gives the figure there (<= 0
    where it passes, > 0 where it fails; None where it is not known); f_lo and f_hi are the
    figure at the ends."""
    side = 0
    probes = 0
    while hi - lo > rel_tol * max(hi, 1e-12):
        if max_probes is not None and probes >= max_probes:
            break
        probes += 1
        if f_hi is None or f_hi <= 0 or f_lo >= 0:
            mid = 0.5 * (lo + hi)
        else:
            mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
            mid = min(max(mid, lo + 1e-3 * (hi - lo)), hi - 1e-3 * (hi - lo))
        passes, f_mid = probe(mid)
        if passes:
            lo, f_lo = mid, f_mid if f_mid is not None else 0.0
            if side == +1 and f_hi is not None:
                f_hi /= 2
            side = +1
        else:
            hi, f_hi = mid, f_mid
            if side == -1:
                f_lo /= 2
            side = -1
    return lo


def fixed_point_between(
    solve: Callable[[float], tuple[Solution, float]],
    lo: float,
    h_lo: float,
    hi: float,
    h_hi: float,
    last: Solution,
    *,
    rel_tol: float,
    max_probes: int,
) -> Solution:
    """x = g(x) from a bracket with h = g - x positive at lo (h_lo) and negative at hi (h_hi),
    by regula falsi on h with the Illinois modification. `solve(x)` gives a solution at x and
    g(x). Stops when a probe has |h| <= rel_tol x, when the bracket is within rel_tol of hi,
    when h_hi >= 0 (hi itself is taken) or after `max_probes` probes, and returns the last
    solution probed (`last`, the caller's solution at hi, when there was none)."""
    side = 0
    for _ in range(max_probes):
        if h_hi >= 0 or hi - lo <= rel_tol * hi:
            break
        x = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
        last, g_x = solve(x)
        h_x = g_x - x
        if abs(h_x) <= rel_tol * x:
            break
        if h_x > 0:
            lo, h_lo = x, h_x
            if side == +1:
                h_hi /= 2
            side = +1
        else:
            hi, h_hi = x, h_x
            if side == -1:
                h_lo /= 2
            side = -1
    return last
