"""The storage system model as a sizing choice (issue 14: the search covers "model, processor
ways, cache, host ports, DA pairs, ranks"): `analyses.size.model: [ds8700-941, ds8800-951]`
tries every configuration on each model, with the drives as that model packages them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.analyses.size import size_scenario
from diskmodel.catalog import load_catalog
from diskmodel.prediction import SizingResult
from diskmodel.report.size_text import answer_lines
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, predict_one, with_data
from .test_sizing_pruning import same_answers, wide_space

MODELS = ["ds8700-941", "ds8800-951"]


def _data(**size: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["workloads"][0]["iops"] = 4000
    data["analyses"] = {"size": {"model": MODELS, **size}}
    return data


RANKS = [{"pool": "p", "drive": "15k-300", "raid": "raid5-7+p", "counts": [4, 6]}]


@pytest.fixture(scope="module")
def result() -> SizingResult:
    return size_scenario(with_data(_data(ranks=RANKS, da_pairs=[1, 2])), prune=False)


def _variant(choice: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["workloads"][0]["iops"] = 4000
    data["system"]["model"] = choice["model"]
    data["system"]["da_pairs"] = choice["da_pairs"]
    data["pools"][0]["ranks"][0]["count"] = choice["p: 15k-300 raid5-7+p"]
    return data


def test_every_configuration_is_tried_on_every_model(result: SizingResult) -> None:
    choices = [dict(c.choice) for c in result.candidates]
    assert len(choices) == 2 * 2 * 2
    assert {c["model"] for c in choices} == set(MODELS)
    assert choices[0]["model"] == "ds8800-951"  # the current configuration first


def test_each_configuration_gives_what_its_own_run_gives(result: SizingResult) -> None:
    for c in result.candidates:
        assert c.error is None
        run = predict_one(with_data(_variant(dict(c.choice))))
        assert c.response_time_ms == run.response_time_ms


def test_the_same_drives_draw_the_power_their_packaging_does(result: SizingResult) -> None:
    """A model packages the same drive type its own way (3.5-inch FC in the DS8700, 2.5-inch
    SAS in the DS8800), so the same configuration has the same drive count but the power of
    that packaging (catalog power_w)."""
    catalog = load_catalog()
    for c in result.candidates:
        choice = dict(c.choice)
        drive = catalog.installed_drive(choice["model"], "15k-300")
        assert c.drives == 8 * choice["p: 15k-300 raid5-7+p"]
        assert c.power_w == pytest.approx(c.drives * drive.power_w)


def test_the_ds8800_is_never_slower_than_the_ds8700_at_the_same_configuration(
    result: SizingResult,
) -> None:
    """DOMAIN.md C3: with the same 15K drives, ports and cache the DS8800 does more (its
    2.5-inch drives seek shorter, its adapters and processors are faster), so at the same load
    its response is lower."""
    response: dict[str, dict[tuple[Any, ...], float | None]] = {m: {} for m in MODELS}
    for c in result.candidates:
        rest = tuple(v for k, v in c.choice if k != "model")
        response[str(dict(c.choice)["model"])][rest] = c.response_time_ms
    assert len(response["ds8700-941"]) == 4
    assert response["ds8700-941"].keys() == response["ds8800-951"].keys()
    for rest, older in response["ds8700-941"].items():
        newer = response["ds8800-951"][rest]
        assert older is not None
        assert newer is not None
        assert newer < older


def test_a_change_of_model_is_not_an_upgrade(result: SizingResult) -> None:
    for c in result.candidates:
        choice = dict(c.choice)
        adds = choice["p: 15k-300 raid5-7+p"] >= 4 and choice["da_pairs"] >= 2
        assert c.upgrade == (adds and choice["model"] == "ds8800-951")


def test_a_model_price_is_added_and_can_change_the_answer() -> None:
    prices = {"drives": {"15k-300": 500}, "model": {"ds8700-941": 0, "ds8800-951": 1e6}}
    r = size_scenario(with_data(_data(ranks=RANKS, prices=prices)), prune=False)
    by = {
        (dict(c.choice)["model"], dict(c.choice)["p: 15k-300 raid5-7+p"]): c for c in r.candidates
    }
    for ranks in (4, 6):
        old, new = by[("ds8700-941", ranks)], by[("ds8800-951", ranks)]
        assert old.price is not None
        assert new.price is not None
        assert new.price - old.price == pytest.approx(1e6)
    assert r.cheapest is not None
    assert dict(r.candidates[r.cheapest].choice)["model"] == "ds8700-941"


def test_pruning_keeps_the_answers_across_models() -> None:
    """Each model's configurations are bounded with its own figures: on a wide space some are
    skipped, and nothing reported changes."""
    scenario = wide_space(models=MODELS)
    exhaustive = size_scenario(scenario, workers=1, prune=False)
    pruned = size_scenario(scenario, workers=1)
    assert pruned.pruned
    assert {dict(p.choice)["model"] for p in pruned.pruned} == set(MODELS)
    same_answers(pruned, exhaustive)


def test_the_text_names_the_model(result: SizingResult) -> None:
    lines = "\n".join(answer_lines(result))
    assert "ds8800-951" in lines


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ({"model": ["ds8900"]}, "ds8900"),
        ({"model": ["ds8800-951"], "prices": {"model": {"ds9000": 1}}}, "ds9000"),
    ],
)
def test_an_unknown_model_gets_one_clear_message(size: dict[str, Any], message: str) -> None:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["analyses"] = {"size": size}
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert message in str(caught.value)
    assert "storage system" in str(caught.value)
