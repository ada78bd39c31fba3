"""`diskmodel size` places ranks evenly by default and names what cannot be even (issue 14:
"balanced placement of ranks over DA pairs and servers by default, with any imbalance named";
an odd SSD rank count put the extra rank on one DA pair with nothing saying why)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.prediction import SizingResult
from diskmodel.scenario import Scenario

from ..conftest import ROOT
from ..support.builders import predict_one

SHIPPED = ROOT / "scenarios" / "ds8800-size-ssd-for-1ms.yaml"
EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"


@pytest.fixture(scope="module")
def result() -> SizingResult:
    return size_scenario(load_scenario(SHIPPED), load_catalog(), SHIPPED.parent, prune=False)


def _example(ssd_ranks: int, per_pair: list[int] | None = None) -> Scenario:
    """The bundled example with `ssd_ranks` SSD ranks: dealt by default, or `per_pair[d]` of
    them named onto DA pair d."""
    data: dict[str, Any] = copy.deepcopy(load_scenario(EXAMPLE).model_dump(mode="python"))
    ssd = {"drive": "ssd-300", "raid": "raid5-6+p+s"}
    if per_pair is None:
        data["pools"][0]["ranks"][1] = {**ssd, "count": ssd_ranks, "da_pair": None}
    else:
        assert sum(per_pair) == ssd_ranks
        data["pools"][0]["ranks"][1:] = [
            {**ssd, "count": count, "da_pair": d} for d, count in enumerate(per_pair) if count
        ]
    data["analyses"] = {"curve": {"points": 2}}
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def test_every_kind_is_as_even_as_its_count_allows_and_the_rest_is_named(
    result: SizingResult,
) -> None:
    catalog = load_catalog()
    scenario = load_scenario(SHIPPED)
    for c in result.candidates:
        chosen = dict(c.choice)
        data = copy.deepcopy(scenario.model_dump(mode="python"))
        data["pools"][0]["ranks"] = [
            {"drive": "15k-300", "raid": "raid5-7+p", "count": 16, "da_pair": None}
        ] + (
            [
                {
                    "drive": "ssd-300",
                    "raid": "raid5-6+p+s",
                    "count": int(chosen["oltp: ssd-300 raid5-6+p+s"]),
                    "da_pair": None,
                }
            ]
            if chosen["oltp: ssd-300 raid5-6+p+s"]
            else []
        )
        data["system"]["da_pairs"] = int(chosen["da_pairs"])
        data["analyses"] = {"curve": {"points": 2}}
        config = resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
        named = []
        for drive in ("15k-300", "ssd-300"):
            ranks = [r for r in config.ranks if r.drive.name == drive]
            if not ranks:
                continue
            pairs = [sum(r.da_pair == d for r in ranks) for d in range(int(chosen["da_pairs"]))]
            servers = [sum(r.server == s for r in ranks) for s in range(2)]
            assert max(pairs) - min(pairs) <= 1
            assert max(servers) - min(servers) <= 1
            if max(pairs) > min(pairs) or max(servers) > min(servers):
                named.append(drive)
                if max(pairs) > min(pairs):
                    assert f"DA {'/'.join(map(str, pairs))}" in c.uneven
        assert [d for d in ("15k-300", "ssd-300") if c.uneven.count(f"{d}:")] == named


def test_an_odd_ssd_rank_count_is_named() -> None:
    data = copy.deepcopy(load_scenario(EXAMPLE).model_dump(mode="python"))
    data["analyses"] = {
        "size": {
            "ranks": [{"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [2, 3]}]
        }
    }
    r = size_scenario(
        Scenario.model_validate(data, context={"catalog": load_catalog()}), prune=False
    )
    by_count = {dict(c.choice)["oltp: ssd-300 raid5-6+p+s"]: c for c in r.candidates}
    assert by_count[2].uneven == ""
    assert by_count[3].uneven == "ssd-300: DA 2/1, servers 2/1"


@pytest.mark.parametrize("ssd_ranks", [1, 2, 3, 4])
def test_no_placement_of_the_ssd_ranks_beats_the_even_one(ssd_ranks: int) -> None:
    """Why placement is not a choice of the search: it costs nothing, and the even placement
    (the default) is never worse than any other. Every placement of identical SSD ranks on the
    example's two DA pairs is tried (only the count on each pair tells them apart)."""
    even = predict_one(_example(ssd_ranks))
    assert even.response_time_ms is not None
    for on_first in range(ssd_ranks + 1):
        other = predict_one(_example(ssd_ranks, [on_first, ssd_ranks - on_first]))
        assert other.response_time_ms is not None
        assert even.response_time_ms <= other.response_time_ms * (1 + 1e-9), on_first
        assert even.max_iops >= other.max_iops * (1 - 1e-4), on_first  # SATURATION_TOL
