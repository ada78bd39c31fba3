"""`diskmodel size` skips configurations by bounds from the queueing core
(diskmodel/analyses/size_bounds.py). Two things are proved here, on small spaces where the
exhaustive search is the reference:

- every bound holds against the exact solution: the response-time lower bound is at or below
  the exact response now, each component kind's utilisation lower bound at or below its
  busiest station's exact utilisation, a configuration the bounds saturate is saturated, and
  one they prove breaks the service level does break it;
- the pruned search reports exactly what the exhaustive one does: the same front, the same
  cheapest configuration and cheapest upgrade, every configuration it solves with the same
  figures, and every configuration offered either solved or skipped with its bound.
"""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import diskmodel.analyses.size as size_module
from diskmodel.analyses import size_bounds, size_offers, size_profile, size_try
from diskmodel.analyses.limits import busiest_of_kind
from diskmodel.analyses.size import size_scenario
from diskmodel.analyses.size_batch import screen_limits
from diskmodel.catalog import load_catalog
from diskmodel.model.costs import drive_gain, queue_limit
from diskmodel.model.operating import Solver
from diskmodel.prediction import Choice, SizingResult
from diskmodel.report.json_result import sizing_json
from diskmodel.scenario import Scenario
from diskmodel.vocabulary import COMPONENT_KINDS

REL = 1e-9
"""The bounds and the exact solution compute the same sums in a different order."""

TIERED: dict[str, Any] = {
    "schema_version": 1,
    "name": "pruning",
    "system": {
        "model": "ds8800-951",
        "processor_ways": 4,
        "cache_gb": 128,
        "host_ports": 8,
        "da_pairs": 2,
    },
    "pools": [
        {
            "name": "p",
            "easy_tier": "auto",
            "ranks": [
                {"drive": "15k-300", "raid": "raid5-7+p", "count": 8},
                {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
            ],
        }
    ],
    "workloads": [
        {
            "name": "oltp",
            "pool": "p",
            "iops": 9000,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.4,
            "destage_ratio": 0.6,
            "read_size_kib": 8,
            "write_size_kib": 8,
            "capacity_gb": 12000,
            "skew": {"level": "high"},
        }
    ],
    "service_level": {"response_time_ms": 2},
    "analyses": {"growth": {"rate": 0.3, "per": "year", "periods": 2}},
}


def _scenario(
    *,
    iops: float,
    read_fraction: float,
    skew: str,
    easy_tier: str,
    target_ms: float,
    ssd: list[int],
    hdd: list[int],
    da_pairs: list[int],
    host_ports: list[int],
    prices: bool,
    hdd_raid: str = "raid5-7+p",
    batch: bool = False,
    ways: list[int] | None = None,
    cache_gb: list[int] | None = None,
    models: list[str] | None = None,
) -> Scenario:
    data = copy.deepcopy(TIERED)
    w = data["workloads"][0]
    w["iops"], w["read_fraction"], w["skew"] = iops, read_fraction, {"level": skew}
    if batch:  # a second workload in the pool: large, mostly sequential reads, little skew
        data["workloads"].append(
            {
                "name": "batch",
                "pool": "p",
                "iops": iops / 4,
                "read_fraction": 0.9,
                "read_hit_ratio": 0.2,
                "read_size_kib": 64,
                "read_sequential_fraction": 0.8,
                "capacity_gb": 2000,
                "skew": {"level": "low"},
            }
        )
    data["pools"][0]["easy_tier"] = easy_tier
    data["service_level"]["response_time_ms"] = target_ms
    size: dict[str, Any] = {
        "ranks": [
            {"pool": "p", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": ssd},
            {"pool": "p", "drive": "15k-300", "raid": hdd_raid, "counts": hdd},
        ],
        "da_pairs": da_pairs,
        "host_ports": host_ports,
    }
    if ways:
        size["processor_ways"] = ways
    if cache_gb:
        size["cache_gb"] = cache_gb
    if models:
        size["model"] = models
    if prices:
        size["prices"] = {
            "drives": {"ssd-300": 10000, "15k-300": 1000},
            "da_pair": 20000,
            "host_port": 2000,
        }
    data["analyses"]["size"] = size
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


spaces = st.builds(
    _scenario,
    iops=st.sampled_from([3000.0, 9000.0, 20000.0, 40000.0]),
    read_fraction=st.sampled_from([0.5, 0.7, 0.9]),
    skew=st.sampled_from(["low", "intermediate", "high", "very_high"]),
    easy_tier=st.sampled_from(["auto", "off"]),
    target_ms=st.sampled_from([0.5, 1.0, 2.0, 5.0]),
    ssd=st.lists(st.integers(0, 4), min_size=1, max_size=2, unique=True),
    hdd=st.lists(st.sampled_from([4, 8, 12]), min_size=1, max_size=2, unique=True),
    da_pairs=st.lists(st.integers(1, 4), min_size=1, max_size=2, unique=True),
    host_ports=st.lists(st.sampled_from([1, 2, 8]), min_size=1, max_size=2, unique=True),
    prices=st.booleans(),
    hdd_raid=st.sampled_from(["raid5-7+p", "raid6-6+p+q", "raid10-4x2"]),
    batch=st.booleans(),
    ways=st.sampled_from([None, [2, 4]]),
    cache_gb=st.sampled_from([None, [128, 256]]),
    models=st.sampled_from([None, ["ds8700-941", "ds8800-951"]]),
)


def _choice(r: SizingResult, index: int | None) -> Choice | None:
    return None if index is None else r.candidates[index].choice


def same_answers(pruned: SizingResult, exhaustive: SizingResult) -> None:
    assert not exhaustive.pruned
    assert [_choice(pruned, i) for i in pruned.front] == [
        _choice(exhaustive, i) for i in exhaustive.front
    ]
    assert _choice(pruned, pruned.cheapest) == _choice(exhaustive, exhaustive.cheapest)
    assert _choice(pruned, pruned.cheapest_upgrade) == _choice(
        exhaustive, exhaustive.cheapest_upgrade
    )
    by_choice = {c.choice: c for c in exhaustive.candidates}
    for c in pruned.candidates:
        assert c == by_choice[c.choice]
    offered = {c.choice for c in exhaustive.candidates}
    solved = [c.choice for c in pruned.candidates]
    skipped = [p.choice for p in pruned.pruned]
    assert sorted(solved + skipped) == sorted(offered)
    assert pruned.candidates[0].choice == exhaustive.candidates[0].choice  # current first
    for p in pruned.pruned:
        assert p.bound in ("saturation", "service level", "cost")
        assert p.detail


@settings(max_examples=12)
@given(spaces)
def test_the_pruned_search_gives_what_the_exhaustive_one_gives(scenario: Scenario) -> None:
    exhaustive = size_scenario(scenario, workers=1, prune=False)
    pruned = size_scenario(scenario, workers=1, prune=True)
    same_answers(pruned, exhaustive)


def _screened(scenario: Scenario) -> tuple[list[Any], Any, list[Any]]:
    """Every configuration of the search (as size_scenario builds them), its bounds, and its
    validated scenario (or why it is not possible)."""
    catalog = load_catalog()
    scenario = scenario.corner("central")
    names, options = size_offers.offered_choices(scenario)
    base = scenario.model_dump(mode="python")
    growth = scenario.analyses.growth
    factors = tuple(growth.multipliers) if growth else ()
    periods = ("now", *(growth.labels if growth else ()))
    context = size_try.SizingContext(scenario, catalog, None, periods, factors)
    combos = [dict(zip(names, v, strict=True)) for v in itertools.product(*options)]
    jobs = [
        size_try.SizingJob(
            size_offers.variant_data(base, scenario, c), tuple((k, c[k]) for k in names), False
        )
        for c in combos
    ]
    variants = [size_try.validated(job, catalog) for job in jobs]
    return jobs, size_module._screen(scenario, context, variants)[0], variants


@settings(max_examples=8)
@given(spaces)
def test_every_bound_holds_against_the_exact_solution(scenario: Scenario) -> None:
    jobs, screen, variants = _screened(scenario)
    catalog = load_catalog()
    context = size_try.SizingContext(
        scenario, catalog, None, ("now", "year 1", "year 2"), (1.3, 1.3**2)
    )
    for i, (job, variant) in enumerate(zip(jobs, variants, strict=True)):
        if isinstance(variant, str):
            continue
        exact = size_try.try_configuration(job, context)
        planned = Solver(size_try.sized_configuration(variant, context)).planned_point()
        for k, kind in enumerate(COMPONENT_KINDS):
            _, busiest = busiest_of_kind(planned, kind)
            low = float(screen.utilization_lb[k, i])
            # A saturated station's utilisation is reported as 1.
            assert min(low, 1.0) <= busiest * (1 + REL) + 1e-12, (kind, job.choice)
            if low >= 1 + REL:
                assert busiest == 1.0
                assert planned.saturated
        if screen.saturated[i]:
            assert planned.saturated
            assert exact.response_time_ms is None
        elif exact.response_time_ms is not None:
            assert screen.response_lb_s[i] * 1e3 <= exact.response_time_ms * (1 + REL)
        if screen.fails[i]:
            assert not exact.meets, (job.choice, screen.reason[i])


def _screen_inputs(scenario: Scenario) -> tuple[list[Any], Any]:
    """Each system model's inputs to the bounds, as the search makes them, and the limits."""
    catalog = load_catalog()
    central = scenario.corner("central")
    context = size_try.sizing_context(central, catalog, None)
    _, variants = size_module._jobs(central, catalog, context.prices, context.shared, context.kept)
    by_model: dict[str, list[Scenario]] = {}
    for v in variants:
        if not isinstance(v, str):
            by_model.setdefault(v.system.model, []).append(v)
    inputs = [
        size_module._screen_model(model, context, members)[0]
        for model, members in sorted(by_model.items())
    ]
    return inputs, screen_limits(central, context.periods)


@settings(max_examples=40, deadline=None)
@given(spaces)
def test_the_group_proof_of_no_saturation_agrees_with_the_screen(scenario: Scenario) -> None:
    """`unsaturated_responses` bounds each profile's configurations as one group: where it
    proves none saturated, the screen saturates none, and its response bounds are the
    screen's to the bit; where the screen saturates one, it proves nothing."""
    inputs, limits = _screen_inputs(scenario)
    for part in inputs:
        whole = size_bounds.screen(*part, limits)
        quick = size_bounds.unsaturated_responses(*part, size_bounds.planned_response(*part))
        if whole.saturated.any():
            assert quick is None
        if quick is not None:
            assert not whole.saturated.any()
            assert np.array_equal(quick, whole.response_lb_s)


def test_a_search_that_skips_nothing_makes_only_the_response_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a space where more drives cost more and respond faster, nothing is skipped, and the
    search asks the bounds for no more than the group proof and the response bounds
    (`size_bounds.Bounded`): the screen itself is never made."""
    scenario = _scenario(
        iops=9000,
        read_fraction=0.7,
        skew="high",
        easy_tier="auto",
        target_ms=1.0,
        ssd=[0, 1, 2, 3],
        hdd=[8],
        da_pairs=[1, 2],
        host_ports=[8],
        prices=False,
    )
    exhaustive = size_scenario(scenario, workers=1, prune=False)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the screen was made")

    monkeypatch.setattr(size_bounds, "screen", refused)
    pruned = size_scenario(scenario, workers=1)
    assert not pruned.pruned
    same_answers(pruned, exhaustive)


def wide_space(models: list[str] | None = None) -> Scenario:
    """A space where many configurations are dearer and slower than ones already solved (all
    HDD, or few SSD ranks on many 15K ranks)."""
    return _scenario(
        iops=14000,
        read_fraction=0.7,
        skew="high",
        easy_tier="auto",
        target_ms=5.0,
        ssd=[0, 1, 2, 3, 4],
        hdd=[8, 12, 16, 20],
        da_pairs=[2, 4],
        host_ports=[4, 8],
        prices=True,
        models=models,
    )


def test_a_wide_space_is_pruned_and_the_answers_are_the_same() -> None:
    """On the wide space some configurations are skipped, and nothing reported changes."""
    scenario = wide_space()
    exhaustive = size_scenario(scenario, workers=1, prune=False)
    pruned = size_scenario(scenario, workers=1)
    assert pruned.pruned
    assert f"{len(pruned.pruned)} skipped" in pruned.method
    same_answers(pruned, exhaustive)


def _one_port_at_40000() -> Scenario:
    """40,000 IOPS of 8 KiB offered 1 or 8 host ports: one port alone is over 100% busy."""
    return _scenario(
        iops=40000,
        read_fraction=0.7,
        skew="high",
        easy_tier="auto",
        target_ms=5.0,
        ssd=[2],
        hdd=[8],
        da_pairs=[2],
        host_ports=[1, 8],
        prices=False,
    )


def test_saturation_is_proved_without_solving() -> None:
    """One host port at 40,000 IOPS of 8 KiB: the ports' exact utilisation is over 1, so the
    configuration is skipped by the saturation bound, and the exhaustive search finds it
    saturated."""
    scenario = _one_port_at_40000()
    exhaustive = size_scenario(scenario, workers=1, prune=False)
    (one_port,) = [c for c in exhaustive.candidates if dict(c.choice)["host_ports"] == 1]
    assert one_port.response_time_ms is None
    pruned = size_scenario(scenario, workers=1)
    saturated = [p for p in pruned.pruned if p.bound == "saturation"]
    assert [dict(p.choice)["host_ports"] for p in saturated] == [1]
    assert "host ports utilisation" in saturated[0].detail
    same_answers(pruned, exhaustive)


def test_the_json_lists_what_was_skipped_and_by_which_bound() -> None:
    scenario = _one_port_at_40000()
    data = json.loads(sizing_json(size_scenario(scenario, workers=1)))["sizing"]
    assert {"choice", "bound", "detail"} <= set(data["pruned"][0])
    assert data["method"].startswith("cheapest first with bounds")
    # The two offered and the scenario's own (1 SSD rank), which is always solved.
    assert len(data["candidates"]) + len(data["pruned"]) == 3


def test_closed_workloads_are_searched_exhaustively() -> None:
    data = copy.deepcopy(TIERED)
    w = data["workloads"][0]
    del w["iops"]
    w["queue_depth"] = 8
    data["analyses"]["size"] = {"da_pairs": [1, 2]}
    scenario = Scenario.model_validate(data, context={"catalog": load_catalog()})
    r = size_scenario(scenario, workers=1)
    assert not r.pruned
    assert "exhaustive" in r.method
    assert "closed" in r.method
    assert len(r.candidates) == 2


def test_the_bounds_are_tight_where_the_ssd_tier_takes_the_misses() -> None:
    """Not a proof but a measure of use: with 2 or more SSD ranks under Easy Tier the
    response-time bound is within 30% of the exact response (the skew bound puts the hot
    misses on the SSDs; what it leaves out is queueing)."""
    scenario = _scenario(
        iops=9000,
        read_fraction=0.7,
        skew="high",
        easy_tier="auto",
        target_ms=5.0,
        ssd=[2, 3, 4],
        hdd=[8],
        da_pairs=[2],
        host_ports=[8],
        prices=False,
    )
    jobs, screen, _variants = _screened(scenario)
    exact = size_scenario(scenario, workers=1, prune=False)
    by_choice = {c.choice: c.response_time_ms for c in exact.candidates}
    ratios = [
        screen.response_lb_s[i] * 1e3 / (by_choice[job.choice] or np.inf)
        for i, job in enumerate(jobs)
    ]
    assert all(0.7 <= r <= 1 + REL for r in ratios), ratios


SPANS = (1e-3, 1 / 64, 1 / 8, 1 / 2, 1.0)


@pytest.mark.parametrize("system", ["ds8800-951", "ds8700-941"])
def test_no_drive_serves_faster_than_one_request_per_request_queued(system: str) -> None:
    """The premise of two bounds (size_profile.most_per_drive, and a drive's response at least
    its queue-length-one service): alpha(n) <= n for every catalog drive on every span, and
    an SSD's gain is the same on every span."""
    catalog = load_catalog()
    commands = catalog.systems[system].device_adapter.commands_per_hdd
    for name in catalog.systems[system].drives:
        rank = size_profile.installed_rank(catalog, system, "p", name, "raid5-7+p")
        depth = queue_limit(rank, commands)
        gains = [drive_gain(rank, span, depth) for span in SPANS]
        gains += [drive_gain(rank, span, depth, share) for span in SPANS for share in (0.3, 1.0)]
        for gain in gains:
            n = np.arange(1, len(gain) + 1)
            assert np.all(gain <= n * (1 + 1e-12)), (name, gain)
            assert gain[-1] <= size_profile.most_per_drive(rank, commands) * (1 + 1e-12)
        if rank.drive.kind == "ssd":
            assert all(np.array_equal(g, gains[0]) for g in gains), name
