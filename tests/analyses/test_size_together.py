"""One question gets one answer: the sizing search solves its configurations together
(`size_try.try_configurations`: each placed on its own, then every open network solved in one
pass, `model.open.station_states_many`), and every configuration of both shipped sizing
scenarios must come out of that to the bit as it comes out tried alone, and as `diskmodel run`
predicts it on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diskmodel.analyses import size, size_try
from diskmodel.analyses.limits import (
    Limit,
    first_broken,
    first_broken_each,
    first_broken_over,
    limits,
)
from diskmodel.analyses.predict import predict_configuration
from diskmodel.analyses.size import _jobs, size_scenario
from diskmodel.analyses.size_try import (
    SizingContext,
    SizingJob,
    sized_configuration,
    sizing_context,
    try_configuration,
    try_configurations,
)
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.model.layout import forget_placements
from diskmodel.model.open import station_states, station_states_many
from diskmodel.model.operating import (
    OperatingPoint,
    Solver,
    open_loads_together,
    open_points_together,
    open_responses,
)
from diskmodel.scenario import Scenario

from ..conftest import ROOT
from .test_sizing_pruning import wide_space

SHIPPED = (
    ROOT / "scenarios" / "ds8800-size-for-growth.yaml",
    ROOT / "scenarios" / "ds8800-size-ssd-for-1ms.yaml",
)
_POINT_ARRAYS = (
    "rates",
    "arrival",
    "utilization",
    "wait_s",
    "service_s",
    "speed_factor",
    "station_saturated",
    "class_response_s",
    "wait_ratio",
)
_STATE_ARRAYS = (
    "arrival",
    "utilization",
    "wait_s",
    "service_s",
    "speed_factor",
    "saturated",
    "wait_ratio",
)


def _search(path: Path) -> tuple[SizingContext, list[SizingJob], list[Scenario | str]]:
    catalog = load_catalog()
    scenario = load_scenario(path, catalog).corner("central")
    context = sizing_context(scenario, catalog, path.parent)
    size = scenario.analyses.size
    assert size is not None
    jobs, variants = _jobs(scenario, catalog, size.prices, context.shared, context.kept)
    return context, jobs, variants


def _bitwise(x: np.ndarray, y: np.ndarray, name: str) -> None:
    assert x.shape == y.shape, name
    assert x.dtype == y.dtype, name
    assert x.tobytes() == y.tobytes(), name


def _same_point(a: OperatingPoint, b: OperatingPoint) -> None:
    assert (a.saturated, a.nvs_full) == (b.saturated, b.nvs_full)
    for name in _POINT_ARRAYS:
        _bitwise(getattr(a, name), getattr(b, name), name)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_configuration_tried_together_is_what_it_is_tried_alone(path: Path) -> None:
    context, jobs, _ = _search(path)
    forget_placements()
    together = try_configurations(jobs, context)
    alone = []
    for job in jobs:
        forget_placements()  # nothing found from another configuration's solve
        alone.append(try_configuration(job, context))
    assert len(together) == len(jobs) > 20
    assert sum(c.error is None for c in together) > 20  # most are solved, not refused
    assert together == alone  # every figure, floats compared exactly


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_open_point_solved_together_is_the_one_solved_alone(path: Path) -> None:
    """The planned load and the growth loads (and loads past saturation) of every valid
    configuration, solved in one pass, against each configuration's own `open_points`."""
    context, _, variants = _search(path)
    configs = [sized_configuration(v, context) for v in variants if not isinstance(v, str)]
    factors = [*context.factors, 40.0]  # 40x saturates every configuration offered
    asks = []
    forget_placements()
    for config in configs:
        solver = Solver(config)
        planned = solver.planned_rates()[:, None]
        asks += [(solver, planned), (solver, planned * factors)]
    together = open_points_together(asks)
    assert any(p.saturated for points in together for p in points)
    for config, k in zip(configs, range(0, len(asks), 2), strict=True):
        forget_placements()
        solver = Solver(config)
        planned = solver.planned_rates()[:, None]
        for got, want in zip(
            together[k] + together[k + 1],
            solver.open_points(planned) + solver.open_points(planned * factors),
            strict=True,
        ):
            _same_point(got, want)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_station_states_of_many_networks_are_each_networks_own(path: Path) -> None:
    context, _, variants = _search(path)
    asks = []
    for v in variants:
        if isinstance(v, str):
            continue
        solver = Solver(sized_configuration(v, context))
        rates = solver.planned_rates()
        net = solver.network(rates)
        asks += [(net, rates[:, None]), (net, rates[:, None] * np.array([0.0, 1.3, 2.2, 40.0]))]
    many = station_states_many(asks)
    saturated = 0
    for (net, rates), got in zip(asks, many, strict=True):
        want = station_states(net, rates)
        saturated += int(want.saturated.any())  # at 40x the planned load
        for name in _STATE_ARRAYS:
            _bitwise(getattr(got, name), getattr(want, name), name)
    assert saturated > 0  # the saturated stations' branch is compared too


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_configuration_tried_together_is_what_run_predicts(path: Path) -> None:
    """The search's response now and in each growth period is `diskmodel run`'s prediction
    of that configuration on its own (resolved with everything a report shows)."""
    context, jobs, variants = _search(path)
    forget_placements()
    together = try_configurations(jobs, context)
    checked = 0
    for candidate, variant in zip(together, variants, strict=True):
        if isinstance(variant, str):
            assert candidate.error is not None
            continue
        forget_placements()
        config = sized_configuration(variant, context)
        run = predict_configuration(config, context.factors)
        assert candidate.response_time_ms == run.response_time_ms
        assert candidate.response_by_period_ms == (
            run.response_time_ms,
            *(g.response_time_ms for g in run.growth),
        )
        assert candidate.meets == (
            run.service_level.met and all(g.meets_service_level for g in run.growth)
        )
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("where", [*SHIPPED, "wide"], ids=lambda p: getattr(p, "stem", p))
def test_solving_ahead_of_the_bounds_changes_nothing_they_decide(
    where: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one process the search solves the configurations after a batch that the bounds do
    not skip yet with it (`size.SOLVED_AHEAD`); what it solves and skips, with the bound and
    its figures, is what it is solved batch by batch (the wide space skips many, some only
    after configurations solved ahead of them)."""
    scenario = wide_space() if where == "wide" else load_scenario(where)
    forget_placements()
    ahead = size_scenario(scenario, workers=1)
    monkeypatch.setattr(size, "SOLVED_AHEAD", 0)
    forget_placements()
    batch_by_batch = size_scenario(scenario, workers=1)
    assert ahead == batch_by_batch
    if where == "wide":
        assert len(ahead.pruned) > 5


def test_a_long_list_is_solved_in_passes_of_at_most_solved_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `SOLVED_TOGETHER` configurations the list is solved in passes; the answers are
    the same, and each pass stacks no more networks than that."""
    context, jobs, _ = _search(SHIPPED[0])
    forget_placements()
    whole = try_configurations(jobs, context)
    passes: list[int] = []
    solve = size_try.open_loads_together

    def counted(asks: Any) -> Any:
        passes.append(len({id(solver) for solver, _ in asks}))
        return solve(asks)

    monkeypatch.setattr(size_try, "SOLVED_TOGETHER", 7)
    monkeypatch.setattr(size_try, "open_loads_together", counted)
    forget_placements()
    assert try_configurations(jobs, context) == whole
    assert len(passes) == -(-len(jobs) // 7)
    assert max(passes) <= 7


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_limits_read_together_name_what_each_point_breaks(path: Path) -> None:
    """A candidate's limits read at all its points at once (`limits.first_broken_each`, each
    ceiling's busiest station over the points of one network) name at every point what
    `first_broken` names there, also past saturation (loads up to 40 x the planned)."""
    catalog = load_catalog()
    scenario = load_scenario(path, catalog).corner("central")
    context = sizing_context(scenario, catalog, None)
    _, variants = _jobs(scenario, catalog, None, context.shared, context.kept)
    seen = set()
    for variant in variants[:12]:
        if isinstance(variant, str):
            continue
        solver = Solver(sized_configuration(variant, context))
        level = limits(solver.config.service_level)
        points = size_try._points(solver, (1.3, 2.0, 4.0, 10.0, 40.0))
        each = first_broken_each(points, level)
        assert each == [first_broken(p, level) for p in points]
        seen.update(lim.label if lim is not None else "" for lim in each)
    assert "" in seen  # met at some points
    assert len(seen) >= 2  # and broken at others


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_loads_read_as_arrays_are_read_as_their_points(path: Path) -> None:
    """Every configuration's loads read over all of them at once (`operating.open_responses`,
    `limits.first_broken_over`) give each load's point's mean response to the bit and name
    the limit `first_broken` names there, past saturation too (up to 40 x the planned load),
    a read response time (read at the load's own point) with them."""
    context, _, variants = _search(path)
    configs = [sized_configuration(v, context) for v in variants if not isinstance(v, str)]
    asks = []
    forget_placements()
    for config in configs:
        solver = Solver(config)
        planned = solver.planned_rates()[:, None]
        asks += [(solver, planned), (solver, planned * [*context.factors, 1.8, 40.0])]
    many = [loads for groups in open_loads_together(asks) for _, loads in groups]
    points = [point for loads in many for point in loads.points()]
    responses = open_responses(many)
    assert [r.hex() for r in responses] == [p.response_s.hex() for p in points]
    level = (*limits(configs[0].service_level), Limit("read_response_time", "reads", 0.5))
    ceilings_first = tuple(sorted(level[:-1], key=lambda lim: lim.kind != "utilization"))
    named = set()
    for lim in (level, level[::-1], ceilings_first):
        broken = first_broken_over(many, lim, responses)
        assert broken == [first_broken(p, lim) for p in points]
        named.update(b.label if b is not None else "" for b in broken)
    assert any(p.saturated for p in points)
    assert "" in named  # met at some loads
    assert "reads" in named
    assert any("utilisation" in n for n in named)
