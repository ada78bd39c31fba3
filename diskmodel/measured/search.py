"""Where a calibration's least squares starts, and the look around its end for a lower
valley.

The sum of squares of a calibration has more than one valley. Where the load saturates it is
flat in a parameter, and a local fit started there stays; and where two workloads share an Easy
Tier pool, a workload's skew level can put its extents on the SSDs or keep them off, two
valleys a local fit does not cross (on the shipped week the sequential batch's figures are
flat in its level wherever none of its data reach the SSDs, and fall again once much of them
do). So:

- **The start** is the best point of a coarse grid of destage ratio and skew level
  (`GRID_DESTAGE` by `GRID_LEVEL`), walked for every measured workload at once; then each other
  unknown (a hit ratio, a pinned share, the front-end latency, a catalog estimate) is walked
  on its own over `GRID_SHARES` of its range, the rest held at the best so far; then, with
  several workloads, the grid once more for each workload alone (workloads in one pool need
  not share a skew). The front-end latency is walked before the workloads alone: started at
  the middle of [50, 500] us it lengthens every light-load response by about 0.1 ms, which the
  workloads' grids would otherwise absorb by moving data onto the SSDs.
- **The look around.** From the end of the fit the same walks are made again (each workload's
  grid, each other unknown's line), the rest held at the fit; where one reaches a sum of
  squares below the fit's by more than `LOWER` of the 95% threshold's rise, the fit is made
  again from there (`calibrate.LOOKS` times at most). A local fit stopped in the wrong valley
  is found this way at the cost of a grid, not of a global search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from diskmodel.measured.problem import DESTAGE, SKEW, Unknown

GRID_DESTAGE = (0.2, 0.5, 1.0)
GRID_LEVEL = (1.5, 3.0, 6.0, 12.0, 24.0)
"""The coarse grid of a workload's destage ratio by skew level."""
GRID_SHARES = (0.1, 0.3, 0.5, 0.7, 0.9)
"""Where in its range each other unknown is tried (as a share of the range from its low end)."""
GRID = len(GRID_DESTAGE) * len(GRID_LEVEL)

SumOfSquares = Callable[[np.ndarray], float]


def _workloads(unknowns: Sequence[Unknown]) -> list[int]:
    return sorted({u.workload for u in unknowns if u.key == DESTAGE})


def _others(unknowns: Sequence[Unknown]) -> list[int]:
    """The unknowns walked on their own line (neither a destage ratio nor a skew level)."""
    return [i for i, u in enumerate(unknowns) if u.key not in (DESTAGE, SKEW)]


def _grid(unknowns: Sequence[Unknown], point: np.ndarray, workloads: set[int]) -> list[np.ndarray]:
    """`point` with the destage ratio and skew level of every workload in `workloads` set to
    each point of the grid (each distinct point once: a workload whose skew is measured has
    no level to set)."""
    out: dict[tuple[float, ...], np.ndarray] = {}
    for destage in GRID_DESTAGE:
        for level in GRID_LEVEL:
            x = point.copy()
            for i, u in enumerate(unknowns):
                if u.workload in workloads and u.key == DESTAGE:
                    x[i] = destage
                elif u.workload in workloads and u.key == SKEW:
                    x[i] = level
            out.setdefault(tuple(x), x)
    return list(out.values())


def _line(unknowns: Sequence[Unknown], point: np.ndarray, i: int) -> list[np.ndarray]:
    """`point` with unknown `i` at each of `GRID_SHARES` of its range."""
    out = []
    for share in GRID_SHARES:
        x = point.copy()
        x[i] = unknowns[i].low + share * (unknowns[i].high - unknowns[i].low)
        out.append(x)
    return out


def _best(
    sum_of_squares: SumOfSquares, best: tuple[float, np.ndarray], tries: list[np.ndarray]
) -> tuple[float, np.ndarray]:
    for x in tries:
        total = sum_of_squares(x)
        if total < best[0]:
            best = (total, x)
    return best


def start_point(
    sum_of_squares: SumOfSquares, unknowns: Sequence[Unknown], start: np.ndarray
) -> tuple[float, np.ndarray]:
    """The best point of the start's walks (module docstring) and its sum of squares."""
    workloads = _workloads(unknowns)
    best = (sum_of_squares(start), start)
    best = _best(sum_of_squares, best, _grid(unknowns, start, set(workloads)))
    for i in _others(unknowns):
        best = _best(sum_of_squares, best, _line(unknowns, best[1], i))
    if len(workloads) > 1:
        for w in workloads:
            best = _best(sum_of_squares, best, _grid(unknowns, best[1], {w}))
    return best


def look_around(
    sum_of_squares: SumOfSquares, unknowns: Sequence[Unknown], fit: np.ndarray, least: float
) -> tuple[float, np.ndarray]:
    """The best point of each workload's grid and each other unknown's line about the fit
    `fit` (sum of squares `least`), the rest held at the fit: (`least`, `fit`) if none is
    lower."""
    best = (least, fit)
    for w in _workloads(unknowns):
        best = _best(sum_of_squares, best, _grid(unknowns, fit, {w}))
    for i in _others(unknowns):
        best = _best(sum_of_squares, best, _line(unknowns, fit, i))
    return best


def start_evaluations(workloads: int, others: int) -> int:
    """Evaluations of the start: the first guess and the grid for every workload at once, each
    other unknown's line, and with several workloads the grid for each alone."""
    return 1 + GRID + others * len(GRID_SHARES) + (GRID * workloads if workloads > 1 else 0)


def look_evaluations(workloads: int, others: int) -> int:
    """Evaluations of one look around the fit."""
    return GRID * workloads + others * len(GRID_SHARES)


def sizes(unknowns: Sequence[Unknown]) -> tuple[int, int]:
    """(workloads with a grid, other unknowns) of a calibration."""
    return len(_workloads(unknowns)), len(_others(unknowns))
