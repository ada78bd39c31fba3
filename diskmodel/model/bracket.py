"""Bracket searches by regula falsi with the Illinois modification, and by Brent's method.

`highest_passing`: the highest value that passes a test, from a bracket: `lo` passes and `hi`
does not. `highest_within`: the same for a figure known and continuous on the whole bracket,
by Brent's method. `fixed_point_between`: x = g(x) inside a bracket where h(x) = g(x) - x
changes sign.

Used where a load is searched for against a smooth figure that decides pass or fail (a tier's
headroom under Easy Tier's utilisation target, a service-level limit): regula falsi on the
figure with the Illinois modification (Dowell and Jarratt 1971), which halves the figure kept
at an end that stays put twice so that both ends move, a probe kept at least 1e-3 of the
bracket inside it, and plain halving where the figure is unknown (no steady state) or has the
wrong sign. The bracket always holds: the answer is the last value that passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from diskmodel.tiering.roots import brent_bracket

Solution = TypeVar("Solution")
Value = TypeVar("Value", float, float | None)
"""The value of the function searched at a bracket's end (at `hi` None where not known)."""


@dataclass
class Illinois(Generic[Value]):
    """A bracket [lo, hi] of a crossing and the figure at each end (at hi None where it is
    not known), narrowed one probe at a time by the Illinois rule: when the same end moves
    twice running, the figure kept at the other end is halved, so that regula falsi moves
    both ends (Dowell and Jarratt 1971). The three searches of the model share it."""

    lo: float
    f_lo: float
    hi: float
    f_hi: Value
    side: int = 0  # +1: lo moved last; -1: hi moved last

    def passed(self, x: float, f_x: float) -> None:
        """x is on lo's side: it becomes lo."""
        self.lo, self.f_lo = x, f_x
        if self.side == +1 and self.f_hi is not None:
            self.f_hi /= 2
        self.side = +1

    def failed(self, x: float, f_x: Value) -> None:
        """x is on hi's side: it becomes hi."""
        self.hi, self.f_hi = x, f_x
        if self.side == -1:
            self.f_lo /= 2
        self.side = -1


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
    b: Illinois[float | None] = Illinois(lo, f_lo, hi, f_hi)
    probes = 0
    while b.hi - b.lo > rel_tol * max(b.hi, 1e-12):
        if max_probes is not None and probes >= max_probes:
            break
        probes += 1
        lo, hi = b.lo, b.hi
        if b.f_hi is None or b.f_hi <= 0 or b.f_lo >= 0:
            mid = 0.5 * (lo + hi)
        else:
            mid = (lo * b.f_hi - hi * b.f_lo) / (b.f_hi - b.f_lo)
            mid = min(max(mid, lo + 1e-3 * (hi - lo)), hi - 1e-3 * (hi - lo))
        passes, f_mid = probe(mid)
        if passes:
            b.passed(mid, f_mid if f_mid is not None else 0.0)
        else:
            b.failed(mid, f_mid)
    return b.lo


def highest_within(
    figure: Callable[[float], float],
    lo: float,
    f_lo: float,
    hi: float,
    f_hi: float,
    *,
    rel_tol: float,
) -> float:
    """The highest x in [lo, hi] with figure(x) <= 0, to within `rel_tol` of hi, for a figure
    that does not decrease, is known everywhere in the bracket and is continuous but for
    kinks: f_lo <= 0 < f_hi are its values at the ends. Brent's method (`brent_bracket`):
    inverse quadratic interpolation where the figure is smooth, which reaches a tight
    tolerance in a few probes more than a loose one; the answer is the passing end of the
    final bracket, a value that was probed (or lo)."""
    if f_lo == 0.0:  # at the limit already; the figure does not decrease above lo
        return lo
    x, f_x, y, _ = brent_bracket(figure, lo, f_lo, hi, f_hi, xtol=rel_tol * hi, rtol=0.0)
    return x if f_x <= 0.0 else y


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
    b: Illinois[float] = Illinois(lo, h_lo, hi, h_hi)
    for _ in range(max_probes):
        if b.f_hi >= 0 or b.hi - b.lo <= rel_tol * b.hi:
            break
        x = (b.lo * b.f_hi - b.hi * b.f_lo) / (b.f_hi - b.f_lo)
        last, g_x = solve(x)
        h_x = g_x - x
        if abs(h_x) <= rel_tol * x:
            break
        if h_x > 0:
            b.passed(x, h_x)
        else:
            b.failed(x, h_x)
    return last
