"""`system.rank_placement: balanced` (issue 31 item 4): each drive type's ranks spread over the
DA pairs and the servers as evenly as its count allows, whatever the file order.

Before it, a planner could only get an even placement by writing `da_pair:` by hand:
round-robin in file order puts the SSD ranks of [SSD, HDD, SSD, HDD] all on DA pair 0 and
server 0.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from diskmodel.scenario import expand_ranks
from diskmodel.scenario.ranks import group_places, ranks_per_da_pair, round_robin_groups

from ..support.builders import BASE, with_data

DRIVES = ("15k-300", "ssd-300", "nl-3tb")
RAID = {"15k-300": "raid5-7+p", "ssd-300": "raid5-6+p+s", "nl-3tb": "raid6-6+p+q"}


def _data(groups: list[tuple[str, int]], da_pairs: int, placement: str | None) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["system"]["da_pairs"] = da_pairs
    if placement is not None:
        data["system"]["rank_placement"] = placement
    data["pools"][0]["ranks"] = [
        {"drive": drive, "raid": RAID[drive], "count": count} for drive, count in groups
    ]
    data["workloads"][0]["capacity_gb"] = 100  # fits the smallest pool drawn
    return data


ALTERNATING = [("ssd-300", 1), ("15k-300", 1), ("ssd-300", 1), ("15k-300", 1)]


def test_round_robin_stays_the_default_and_can_stack_one_type() -> None:
    ranks = expand_ranks(with_data(_data(ALTERNATING, 2, None)))
    ssd = [r for r in ranks if r.drive == "ssd-300"]
    assert [(r.da_pair, r.server) for r in ssd] == [(0, 0), (0, 0)]


def test_balanced_spreads_each_drive_type_over_the_pairs_and_servers() -> None:
    ranks = expand_ranks(with_data(_data(ALTERNATING, 2, "balanced")))
    for drive in ("ssd-300", "15k-300"):
        mine = [r for r in ranks if r.drive == drive]
        assert sorted(r.da_pair for r in mine) == [0, 1]
        assert sorted(r.server for r in mine) == [0, 1]
    assert [r.index for r in ranks] == [0, 1, 2, 3]  # file order kept


def test_balanced_counts_the_ranks_a_group_pins_to_a_pair() -> None:
    data = _data([("ssd-300", 1), ("ssd-300", 1)], 2, "balanced")
    data["pools"][0]["ranks"][1]["da_pair"] = 0  # the second pinned to pair 0
    ranks = expand_ranks(with_data(data))
    assert [r.da_pair for r in ranks] == [1, 0]


def test_balanced_refuses_a_pair_the_system_lacks_in_one_message() -> None:
    """Found by comparing `schema.SectionChecks` with the validator: a group named to a DA pair
    beyond the system's under balanced placement ended the validation in an IndexError (an
    internal error from `diskmodel check`) where round-robin said the pair does not exist."""
    data = _data([("15k-300", 4)], 2, "balanced")
    data["pools"][0]["ranks"][0]["da_pair"] = 3
    with pytest.raises(ValidationError) as refused:
        with_data(data)
    assert [e["msg"] for e in refused.value.errors(include_url=False)] == [
        "pools[0].ranks[0].da_pair: 3 does not exist; the system has 2 DA pairs, numbered 0 to 1"
    ]


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(st.tuples(st.sampled_from(DRIVES), st.integers(1, 5)), min_size=1, max_size=6),
    da_pairs=st.integers(1, 4),
)
def test_balanced_is_as_even_as_each_count_allows(
    groups: list[tuple[str, int]], da_pairs: int
) -> None:
    ranks = expand_ranks(with_data(_data(groups, da_pairs, "balanced")))
    for drive in {d for d, _ in groups}:
        mine = [r for r in ranks if r.drive == drive]
        per_pair = Counter(r.da_pair for r in mine)
        counts = [per_pair.get(i, 0) for i in range(da_pairs)]
        assert max(counts) - min(counts) <= 1, (drive, counts)
        per_server = Counter(r.server for r in mine)
        assert abs(per_server[0] - per_server[1]) <= 1
    totals = Counter(r.da_pair for r in ranks)
    counts = [totals.get(i, 0) for i in range(da_pairs)]
    assert max(counts) - min(counts) <= len({d for d, _ in groups})


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(
        st.tuples(st.sampled_from(DRIVES), st.integers(1, 6), st.none() | st.integers(0, 3)),
        min_size=1,
        max_size=4,  # at most 24 ranks, what a DA pair takes
    ),
    da_pairs=st.integers(1, 4),
    placement=st.sampled_from(["round_robin", "balanced"]),
)
def test_ranks_per_da_pair_counts_what_expand_ranks_places(
    groups: list[tuple[str, int, int | None]], da_pairs: int, placement: str
) -> None:
    """The hardware check counts the ranks per DA pair without placing each
    (`ranks_per_da_pair`); the resolution of a search places a round-robin group's ranks
    all at once (`group_places`): both as `expand_ranks` places them."""
    data = _data([(drive, count) for drive, count, _ in groups], da_pairs, placement)
    for group, (_, _, pair) in zip(data["pools"][0]["ranks"], groups, strict=True):
        group["da_pair"] = None if pair is None else pair % da_pairs
    scenario = with_data(data)
    placed = expand_ranks(scenario)
    counted = {k: n for k, n in ranks_per_da_pair(scenario).items() if n}
    assert counted == dict(Counter(r.da_pair for r in placed))
    if placement == "round_robin":
        dealt = [
            (pool.name, group.drive, group.raid, *place)
            for pool, group, first, first_pair in round_robin_groups(scenario)
            for place in group_places(group, first, first_pair, da_pairs)
        ]
        assert dealt == [(r.pool, r.drive, r.raid, r.index, r.da_pair, r.server) for r in placed]
