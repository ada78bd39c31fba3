"""`schema.SectionChecks` (each check across sections run once for the sections it reads, over
scenarios that differ only in their system and pools) gives every scenario the messages
`scenario_problems` gives it, in the same order: on every shipped scenario's shape (z/OS, copy
services, logs, an application, several pools), each with systems and rank groups changed
the ways a sizing search changes them and the ways that break the hardware's rules (DA pairs
beyond the system's, ranks beyond what a DA pair serves, a named DA pair that does not exist,
a drive the system does not offer, balanced placement), each asked more than once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from diskmodel.catalog import load_catalog
from diskmodel.scenario import Pool, RankGroup, Scenario, load_scenario
from diskmodel.scenario.schema import SectionChecks, scenario_problems

ROOT = Path(__file__).resolve().parents[2]


def _pool_variants(pool: Pool) -> list[Pool]:
    """The pool as it is, with its groups grown, with a group on a named DA pair (one that
    some systems below do not have), and with a drive one of the systems does not offer and
    a RAID-6 SSD group."""
    grown = [g.model_copy(update={"count": g.count * 6}) for g in pool.ranks]
    named = [*pool.ranks, RankGroup.model_construct(**{**pool.ranks[0].__dict__, "da_pair": 3})]
    other = [
        *pool.ranks,
        pool.ranks[0].model_copy(update={"drive": "nl-1tb", "count": 1}),
        pool.ranks[0].model_copy(update={"drive": "ssd-600", "raid": "raid6-5+p+q+s"}),
    ]
    return [pool, *(pool.model_copy(update={"ranks": r}) for r in (grown, named, other))]


def _systems(scenario: Scenario) -> list[object]:
    cfg = scenario.system
    return [
        cfg,
        cfg.model_copy(update={"da_pairs": 1}),
        cfg.model_copy(update={"da_pairs": 4, "cache_gb": 999.0}),
        cfg.model_copy(update={"da_pairs": 99, "host_ports": 999, "processor_ways": 3}),
        cfg.model_copy(update={"rank_placement": "balanced", "da_pairs": 2}),
    ]


def _outcome(check: Callable[..., list[str]], *args: object) -> list[str] | str:
    """The messages, or the exception's type where a check fails its own way."""
    try:
        return check(*args)
    except Exception as exc:  # compared, not handled
        return type(exc).__name__


def test_the_same_messages_as_scenario_problems_on_every_shipped_shape() -> None:
    catalog = load_catalog()
    paths = sorted((ROOT / "scenarios").glob("*.yaml"))
    compared = broken = 0
    for path in paths:
        scenario = load_scenario(path, catalog).corner("central")
        checks = SectionChecks(catalog)
        pool_lists = [list(scenario.pools)]
        for p, pool in enumerate(scenario.pools):
            for variant in _pool_variants(pool)[1:]:
                pools = list(scenario.pools)
                pools[p] = variant
                pool_lists.append(pools)
        systems = _systems(scenario)
        for _ in range(2):  # the second time from what the first kept
            for system in systems:
                for pools in pool_lists:
                    made = scenario.model_copy(update={"system": system, "pools": list(pools)})
                    expected = _outcome(scenario_problems, made, catalog)
                    assert _outcome(checks.problems, made) == expected, path.name
                    compared += 1
                    broken += bool(expected)
    assert compared > 500
    assert broken > compared // 2
