"""The sizing search over a large space (diskmodel/analyses/size_batch.py, size_space.py).

What is proved here: the space's rows are the configurations the per-configuration search
numbers, in its order; their costs, computed for all rows at once, are the costs of each
configuration's own scenario to the last bit; the front compared as arrays is the front
compared one pair at a time; and on a space of 10,368 configurations (more than 10^4) the
batched search with its bounds gives the same answer (the cheapest, the cheapest upgrade
and the Pareto front) as solving every configuration in full. Speed is measured in
bench/bench_size.py, not here.
"""

from __future__ import annotations

import io
import random
import sys
from typing import Any

import numpy as np
import pytest

from diskmodel.analyses import size as size_module
from diskmodel.analyses.limits import busiest_of_kind
from diskmodel.analyses.size import size_scenario
from diskmodel.analyses.size_batch import open_to_solve, space_screen
from diskmodel.analyses.size_front import SAME_RESPONSE, pareto_front
from diskmodel.analyses.size_offers import configuration_cost
from diskmodel.analyses.size_space import OfferedSpace, space_cost
from diskmodel.analyses.size_try import (
    SizingContext,
    SizingJob,
    sized_configuration,
    try_configuration,
    validated,
)
from diskmodel.api import load_scenario
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.model.operating import Solver
from diskmodel.prediction import SizingCandidate, SizingResult, no_more
from diskmodel.scenario import Scenario
from diskmodel.scenario.loading import load_scenario as load_unbounded
from diskmodel.vocabulary import COMPONENT_KINDS

from ..conftest import ROOT

GROWTH = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
LARGE = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _space(catalog: Catalog, **size: Any) -> Scenario:
    """The growth scenario with the sizing choices `size` (and its prices)."""
    data = load_scenario(GROWTH).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.3, "per": "year", "periods": 3}
    data["analyses"]["size"] = {**size, "prices": data["analyses"]["size"]["prices"]}
    return Scenario.model_validate(data, context={"catalog": catalog})


def test_the_rows_are_the_configurations_the_search_numbers(catalog: Catalog) -> None:
    scenario = _space(
        catalog,
        ranks=[
            {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [0, 2, 4]},
            {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [12, 20]},
        ],
        da_pairs=[2, 4],
        host_ports=[4, 8],
        model=["ds8700-941", "ds8800-951"],
    ).corner("central")
    space = OfferedSpace(scenario)
    jobs, _ = size_module._jobs(scenario, catalog, None)
    assert [space.choice(i) for i in range(len(space))] == [job.choice for job in jobs]
    assert space.choices(np.arange(len(space))[::-1]) == [job.choice for job in jobs][::-1]
    assert [bool(u) for u in space.upgrade()] == [job.upgrade for job in jobs]


def test_the_costs_of_every_row_are_each_configurations_own(catalog: Catalog) -> None:
    """Summed for all rows at once, term by term in the scalar order: equal to the last bit
    (the search ranks and compares by these before any configuration is built)."""
    # Loaded without the work bound: its costs are what is tested, not the search.
    scenario = load_unbounded(LARGE, catalog).corner("central")
    space = OfferedSpace(scenario)
    cost = space_cost(space, catalog)
    prices = scenario.analyses.size.prices  # type: ignore[union-attr]
    rows = random.Random(30).sample(range(len(space)), 60)
    checked = 0
    for i in [0, *rows]:
        variant = validated(SizingJob(space.data(i), (), False), catalog)
        if isinstance(variant, str):
            continue
        drives, power, price = configuration_cost(variant, catalog, prices)
        assert (int(cost.drives[i]), float(cost.power_w[i]), float(cost.key[i])) == (
            drives,
            power,
            price,
        )
        checked += 1
    assert checked > 30


def _pairwise_front(candidates: list[SizingCandidate]) -> tuple[int, ...]:
    """The front one pair at a time (the definition, as size_front wrote it before arrays)."""

    def key(c: SizingCandidate) -> tuple[float, float]:
        return (c.price if c.price is not None else float(c.drives), c.power_w)

    ok = [i for i, c in enumerate(candidates) if c.error is None and c.response_time_ms is not None]

    def beats(j: int, i: int) -> bool:
        cj, ci = key(candidates[j]), key(candidates[i])
        rj = candidates[j].response_time_ms or 0.0
        ri = candidates[i].response_time_ms or 0.0
        no_worse = cj <= ci and rj <= ri * (1 + SAME_RESPONSE)
        better = cj < ci or rj * (1 + SAME_RESPONSE) < ri
        a, b = candidates[j].choice, candidates[i].choice
        smaller = cj == ci and ri <= rj * (1 + SAME_RESPONSE) and no_more(a, b) and a != b
        return no_worse and (better or smaller)

    front = [i for i in ok if not any(beats(j, i) for j in ok if j != i)]
    return tuple(sorted(front, key=lambda i: (key(candidates[i]), i)))


@pytest.mark.parametrize("seed", range(6))
def test_the_front_as_arrays_is_the_front_pair_by_pair(seed: int) -> None:
    """Random candidates with many ties in cost and responses within 1% of each other."""
    rng = random.Random(seed)
    out = []
    for _ in range(rng.randint(1, 700)):
        ssd, pairs = rng.randint(0, 4), rng.choice([1, 2, 4])
        model = rng.choice(["ds8700-941", "ds8800-951"])
        r = rng.choice([None, 1.0, 1.005, 1.01, 1.02, 0.99]) or None
        out.append(
            SizingCandidate(
                (("ssd", ssd), ("model", model), ("da_pairs", pairs)),
                error=rng.choice([None] * 9 + ["not possible"]),
                drives=8 * ssd,
                power_w=float(rng.choice([10, 20])),
                price=float(ssd * 10 + rng.choice([0, 5])) if seed % 2 else None,
                response_time_ms=None if r is None else r * rng.choice([1, 2, 3]),
            )
        )
    assert pareto_front(out) == _pairwise_front(out)


def _choice(r: SizingResult, index: int | None) -> Any:
    return None if index is None else r.candidates[index].choice


@pytest.fixture(scope="module")
def subset(catalog: Catalog) -> Scenario:
    """10,368 configurations: 12 SSD rank counts x 6 15K rank counts x 6 DA pair counts x 6
    host port counts x 2 processor options x 2 system models."""
    return _space(
        catalog,
        ranks=[
            {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": list(range(12))},
            {
                "pool": "oltp",
                "drive": "15k-300",
                "raid": "raid5-7+p",
                "counts": [8, 12, 16, 20, 24, 32],
            },
        ],
        da_pairs=[1, 2, 3, 4, 6, 8],
        host_ports=[2, 4, 8, 16, 24, 32],
        processor_ways=[2, 4],
        model=["ds8700-941", "ds8800-951"],
    )


def test_on_a_10_000_subset_the_answer_is_the_exhaustive_one(
    subset: Scenario, catalog: Catalog
) -> None:
    assert subset.analyses.size is not None
    assert subset.analyses.size.candidates >= 10_000
    tallies: list[tuple[int, int, int]] = []
    pruned = size_scenario(subset, catalog, None, workers=1, tally=lambda *t: tallies.append(t))
    exhaustive = size_scenario(subset, catalog, None, workers=2, prune=False)
    n = subset.analyses.size.candidates
    assert len(exhaustive.candidates) == n
    assert not exhaustive.pruned
    assert len(pruned.candidates) + len(pruned.pruned) == n
    assert pruned.pruned, "the bounds settle nothing: the test proves nothing about them"
    assert all(sum(t) == n for t in tallies)
    assert tallies[-1][2] == 0
    assert _choice(pruned, pruned.cheapest) == _choice(exhaustive, exhaustive.cheapest)
    assert _choice(pruned, pruned.cheapest_upgrade) == _choice(
        exhaustive, exhaustive.cheapest_upgrade
    )
    assert [pruned.candidates[i] for i in pruned.front] == [
        exhaustive.candidates[i] for i in exhaustive.front
    ]
    # Every configuration solved by both is the same to the last bit (the same full model).
    by_choice = {c.choice: c for c in exhaustive.candidates}
    assert all(by_choice[c.choice] == c for c in pruned.candidates)
    # No configuration skipped is on the exhaustive front or an answer.
    front = {exhaustive.candidates[i].choice for i in exhaustive.front}
    assert not front & {p.choice for p in pruned.pruned}
    # The work bound prices the search at the configurations the bounds alone leave open and
    # their back ends. A regression pin, not a proof (the search also solves configurations
    # proven to break the service level that nothing solved beats): here the count is above
    # what the search solves (measured 7,100 open over 639 back ends, 2,112 solved).
    left = open_to_solve(subset, catalog)
    assert left is not None
    assert len(pruned.candidates) <= left.configurations < n
    assert 0 < left.back_ends < left.configurations


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_shows_solved_skipped_and_left_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from diskmodel.cli.sizing import search_progress

    for stream, quiet, shown in ((_Terminal(), False, True), (_Terminal(), True, False)):
        monkeypatch.setattr(sys, "stderr", stream)
        with search_progress(1000, quiet=quiet) as (_, tally):
            tally(10, 600, 390)
        text = stream.getvalue()
        assert ("600 skipped by bounds" in text and "390 left" in text) is shown, text
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with search_progress(1000, quiet=False) as (advance, tally):
        advance(1)
        tally(10, 600, 390)
    assert piped.getvalue() == ""


def test_the_batched_bounds_hold_against_the_exact_solution(catalog: Catalog) -> None:
    """Every bound of the batched search's screen (the drives' busy share among them), on a
    sample of a space where the drives are busy: below the exact figure, and a configuration
    it proves breaks the service level does break it."""
    scenario = _space(
        catalog,
        ranks=[
            {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [0, 1, 2, 4]},
            {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [8, 10, 12, 16]},
        ],
        da_pairs=[1, 2, 4],
        host_ports=[4, 8],
        processor_ways=[2, 4],
        model=["ds8700-941", "ds8800-951"],
    ).corner("central")
    space = OfferedSpace(scenario)
    growth = scenario.analyses.growth
    assert growth is not None
    context = SizingContext(
        scenario,
        catalog,
        None,
        ("now", *growth.labels),
        tuple(growth.multipliers),
        prices=scenario.analyses.size.prices if scenario.analyses.size else None,
        base=scenario.model_dump(mode="python"),
    )
    screen = space_screen(space, context)
    proved = checked = 0
    for i in random.Random(3).sample(range(len(space)), 240):
        variant = validated(SizingJob(space.data(i), (), False), catalog)
        if isinstance(variant, str):
            continue
        checked += 1
        planned = Solver(sized_configuration(variant, context)).planned_point()
        for k, kind in enumerate(COMPONENT_KINDS):
            _, busiest = busiest_of_kind(planned, kind)
            low = float(screen.utilization_lb[k, i])
            assert min(low, 1.0) <= busiest * (1 + 1e-9) + 1e-12, (kind, space.choice(i))
        exact = try_configuration(SizingJob({}, space.choice(i), False, offered=True), context)
        if screen.saturated[i]:
            assert exact.response_time_ms is None
        elif exact.response_time_ms is not None:
            assert screen.response_lb_s[i] * 1e3 <= exact.response_time_ms * (1 + 1e-9)
        if screen.fails[i]:
            proved += 1
            assert not exact.meets, (space.choice(i), screen.reason_of(i))
    assert proved > 5, proved
    assert checked > 40, checked
