"""A calibration's evaluations share networks, operation costs, solved points and timed pools
between the configurations they solve (`model.operating.builds_for`, issue 30 item 4): each
evaluation's figures must be, to the bit, the figures it gets with nothing shared. Checked
on docs/measured.md's week at the points a fit asks for: a start, a finite-difference step in
each unknown from it (a skew level or the front end alone: the configurations that share),
and a step in all of them at once."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.measured.problem import Problem
from diskmodel.model.layout import forget_placements
from diskmodel.model.network_build import NetworkBuilder

from ..support.unshared import share_nothing
from .test_calibrate import _shipped_problem


def _problem() -> Problem:
    return _shipped_problem(3, 100)


def _points(problem: Problem) -> list[np.ndarray]:
    """The start, a step of 1% of its range in each unknown alone, and in all at once."""
    step = 0.01 * (problem.hi - problem.lo)
    out = [problem.start.copy()]
    for j in range(len(step)):
        moved = problem.start.copy()
        moved[j] = min(moved[j] + step[j], problem.hi[j])
        out.append(moved)
    out.append(np.minimum(problem.start + step, problem.hi))
    return out


def _figures(problem: Problem) -> list[bytes]:
    return [problem.residuals(x).tobytes() for x in _points(problem)]


def test_every_evaluation_with_the_stores_is_the_evaluation_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forget_placements()
    problem = _problem()
    assert {u.key for u in problem.unknowns} == {
        "destage_ratio",
        "skew.level",
        "front_end_latency_us",
    }
    built: list[int] = []
    build = NetworkBuilder.build

    def counted(self: NetworkBuilder, layout: object) -> object:
        built.append(1)
        return build(self, layout)  # type: ignore[arg-type]

    monkeypatch.setattr(NetworkBuilder, "build", counted)
    shared = _figures(problem)
    # The skew and front-end steps built no network of their own in some interval.
    assert len(built) < len(_points(problem)) * len(problem.selections)

    share_nothing(monkeypatch)
    alone = _figures(_problem())
    assert alone == shared
