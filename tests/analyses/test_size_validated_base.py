"""A sizing configuration's data made from the scenario's data with the sections no choice
changes validated once (`size_offers.validated_base`), and the sections the choice makes
validated once per search (`size_offers.KeptSections`), validates to the same scenario as its
data made from the plain data, and a configuration the hardware refuses is refused with the
same message; so does one assembled from those models with only the checks across its
sections run (`KeptSections.assembled`, and `KeptSections.made` without the data to look
through): the search validates only what it has not validated, and answers as before."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

from diskmodel.analyses.size_offers import (
    KeptSections,
    base_scenario,
    current_choices,
    offered_choices,
    validated_base,
    variant_data,
)
from diskmodel.analyses.size_try import SizingJob, checked, validated
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.scenario import Scenario, load_scenario

from ..support.builders import BASE

ROOT = Path(__file__).resolve().parents[2]


def _two_pools() -> dict[str, Any]:
    """A scenario with a sized pool beside one left alone, a planned rate given as a range (at
    its middle in the search), a description, and choices the hardware refuses (a cache the
    2-way processors are not offered with, more ranks than one DA pair takes on the DS8700, a
    pool left with no ranks: a section that does not validate on its own)."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["description"] = "two pools, one sized; the other's SSD and 15K ranks left alone"
    data["pools"].append(
        {
            "name": "q",
            "easy_tier": {"mode": "auto", "utilization_target": 0.7},
            "ranks": [
                {"drive": "15k-300", "raid": "raid5-7+p", "count": 4},
                {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
            ],
        }
    )
    data["workloads"][0]["iops"] = [2500, 3500]
    data["workloads"].append(
        {**data["workloads"][0], "name": "batch", "pool": "q", "iops": 1500, "skew": {"level": 3}}
    )
    data["service_level"] = {"response_time_ms": 8}
    data["analyses"] = {
        "growth": {"rate": 0.2, "per": "year", "periods": 2},
        "size": {
            "ranks": [
                {"pool": "p", "drive": "15k-300", "raid": "raid5-7+p", "counts": [0, 2, 4, 40]},
                {"pool": "p", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": [0, 1]},
            ],
            "model": ["ds8700-941", "ds8800-951"],
            "processor_ways": [2, 4],
            "cache_gb": [32, 128, 384],
            "da_pairs": [1, 2],
        },
    }
    return data


def _same_answer(part: Scenario | str, whole: Scenario | str) -> None:
    """`part` is `whole`: the same message, or an equal scenario with the same keys given
    (what a report lists as defaults reads them)."""
    if isinstance(whole, str):
        assert part == whole
    else:
        assert isinstance(part, Scenario)
        assert part == whole
        assert part.model_dump(exclude_unset=True) == whole.model_dump(exclude_unset=True)


def _compared(scenario: Scenario, catalog: Catalog, every: int = 1) -> tuple[int, int]:
    """Each (every `every`-th) configuration validated both ways; (valid, refused) counts."""
    central = scenario.corner("central")
    base = central.model_dump(mode="python")
    shared = validated_base(base, central, catalog)
    assert shared is not base  # validated: the way this test is about
    names, options = offered_choices(central)
    kept = KeptSections(catalog)
    # Assembled from the models validated already, only the checks across sections run.
    assembles = KeptSections(catalog, shared, base_scenario(base, catalog))
    valid = refused = assembled = 0
    for values in itertools.islice(itertools.product(*options), 0, None, every):
        chosen = dict(zip(names, values, strict=True))
        whole = validated(SizingJob(variant_data(base, central, chosen), (), False), catalog)
        for made, sections in (
            (variant_data(shared, central, chosen), None),
            (variant_data(shared, central, chosen, kept), None),
            (variant_data(shared, central, chosen, assembles), assembles),
        ):
            part = validated(SizingJob(made, (), False), catalog, sections)
            if sections is not None:
                assembled += sections.assembled(made) is not None
            _same_answer(part, whole)
        # Put together from the sections directly (`KeptSections.made`, as the search does):
        # the same data, and the same scenario or message.
        put, data = assembles.made(central, chosen)
        assert data == variant_data(shared, central, chosen, assembles)
        _same_answer(checked(put, data, catalog, assembles), whole)
        valid += not isinstance(whole, str)
        refused += isinstance(whole, str)
    # Most are assembled (a section that does not validate on its own is validated whole).
    assert assembled >= (valid + refused) // 2
    return valid, refused


def test_every_configuration_validates_the_same_either_way() -> None:
    catalog = load_catalog()
    counts = [
        _compared(load_scenario(ROOT / "scenarios" / name, catalog), catalog)
        for name in ("ds8800-size-for-growth.yaml", "ds8800-size-ssd-for-1ms.yaml")
    ]
    counts.append(
        _compared(Scenario.model_validate(_two_pools(), context={"catalog": catalog}), catalog)
    )
    large = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"
    counts.append(_compared(load_scenario(large, catalog), catalog, every=997))
    # Both kinds are met, so the comparison can fail either way; a refusal from a section
    # that does not validate on its own among them.
    two = Scenario.model_validate(_two_pools(), context={"catalog": catalog}).corner("central")
    names = offered_choices(two)[0]
    chosen = {**current_choices(two, names), **{n: 0 for n in names if n.startswith("p: ")}}
    data = variant_data(two.model_dump(mode="python"), two, chosen)
    message = validated(SizingJob(data, (), False), catalog)
    assert isinstance(message, str)
    assert "at least 1 item" in message
    assert sum(v for v, _ in counts) > 100
    assert sum(r for _, r in counts) > 20
    assert all(v > 0 for v, _ in counts)


def test_data_that_does_not_validate_is_left_as_it_is() -> None:
    catalog = load_catalog()
    central = load_scenario(ROOT / "scenarios" / "ds8800-size-for-growth.yaml", catalog)
    base = central.corner("central").model_dump(mode="python")
    base["workloads"] = [{**base["workloads"][0], "capacity_gb": 10**7}]
    assert validated_base(base, central, catalog) is base
