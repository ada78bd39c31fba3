"""Issue 14's "done when" question, answered by the shipped sizing scenario
scenarios/ds8800-size-ssd-for-1ms.yaml: the fewest SSD ranks and DA pairs that hold 1 ms
through year 3 for the bundled DS8800 example. The answer and its neighbours are each run on
their own (`diskmodel run`'s prediction, growth included), not read back from the search."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.prediction import Prediction, SizingResult
from diskmodel.report.size_text import render
from diskmodel.report.table import Output
from diskmodel.scenario import Scenario

from ..conftest import ROOT
from ..support.builders import predict_one

SHIPPED = ROOT / "scenarios" / "ds8800-size-ssd-for-1ms.yaml"
EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
SSD = "oltp: ssd-300 raid5-6+p+s"
TARGET_MS = 1.0


@pytest.fixture(scope="module")
def result() -> SizingResult:
    return size_scenario(load_scenario(SHIPPED), load_catalog(), SHIPPED.parent)


def _on_its_own(ssd_ranks: float, da_pairs: float) -> Prediction:
    """The bundled example with this many SSD ranks and DA pairs, grown as the sizing
    scenario grows it, predicted as `diskmodel run` would."""
    data: dict[str, Any] = copy.deepcopy(load_scenario(SHIPPED).model_dump(mode="python"))
    ranks = [g for g in data["pools"][0]["ranks"] if g["drive"] != "ssd-300"]
    if ssd_ranks:
        ranks.append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": int(ssd_ranks)})
    data["pools"][0]["ranks"] = ranks
    data["system"]["da_pairs"] = int(da_pairs)
    growth = data["analyses"]["growth"]
    data["analyses"] = {
        "curve": {"points": 2},
        "growth": {key: growth[key] for key in ("rate", "per", "periods")},
    }
    return predict_one(Scenario.model_validate(data, context={"catalog": load_catalog()}))


def _holds(p: Prediction) -> bool:
    """1 ms (and every ceiling) now and in each of the 3 years."""
    now = p.response_time_ms is not None and p.response_time_ms <= TARGET_MS
    return now and p.service_level.met and all(g.meets_service_level for g in p.growth)


def test_it_is_the_bundled_example_at_its_planned_load_growing_3_years() -> None:
    sized, example = load_scenario(SHIPPED), load_scenario(EXAMPLE)
    assert sized.system == example.system
    assert sized.pools == example.pools
    assert sized.workloads == example.workloads
    assert sized.service_level.response_time_ms == TARGET_MS
    growth = sized.analyses.growth
    assert growth is not None
    assert growth.labels[-1] == "year 3"


def test_the_answer_holds_1_ms_in_every_period_when_run_on_its_own(
    result: SizingResult,
) -> None:
    assert result.cheapest is not None
    best = dict(result.candidates[result.cheapest].choice)
    alone = _on_its_own(best[SSD], best["da_pairs"])
    assert _holds(alone)
    assert [g.factor for g in alone.growth] == pytest.approx([1.3, 1.3**2, 1.3**3], rel=1e-12)
    # The search's figures are that run's figures.
    assert result.candidates[result.cheapest].response_time_ms == alone.response_time_ms


def test_nothing_with_fewer_ssd_ranks_or_da_pairs_holds_it(result: SizingResult) -> None:
    """Every configuration offered with fewer SSD ranks (any DA pairs), or as many SSD ranks
    on fewer DA pairs, breaks 1 ms or a ceiling in some period, run on its own."""
    assert result.cheapest is not None
    best = dict(result.candidates[result.cheapest].choice)
    offered = {dict(c.choice)[SSD] for c in result.candidates}
    pairs = {dict(c.choice)["da_pairs"] for c in result.candidates}
    fewer = [(s, d) for s in offered for d in pairs if s < best[SSD]]
    fewer += [(best[SSD], d) for d in pairs if d < best["da_pairs"]]
    assert fewer  # the question has something to rule out
    for ssd_ranks, da_pairs in fewer:
        assert not _holds(_on_its_own(ssd_ranks, da_pairs)), (ssd_ranks, da_pairs)


def test_the_text_answers_the_question_in_one_sentence(result: SizingResult) -> None:
    text = render(result, Output(terminal=False, width=400))
    (line,) = [line for line in text.splitlines() if line.startswith("Answer:")]
    assert line.count(". ") == 0
    assert line.endswith(".")
    best = result.candidates[result.cheapest or 0]
    count = int(dict(best.choice)[SSD])
    pairs = int(dict(best.choice)["da_pairs"])
    assert f"{count} x {SSD}" in line
    assert f"{pairs} DA pair" in line
    assert "response time ≤ 1 ms" in line
    assert "through year 3" in line
    assert "nothing tried with less of one choice and no more of any other holds it" in line
