"""Concurrency written as hosts and LUNs (issue 12 item 2): LUNs x queue depth per LUN, capped
per host by the HBA queue depth, is the closed population; derived and shown."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, with_data


def _data(**luns: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    w = data["workloads"][0]
    del w["iops"]
    w["luns"] = luns
    return data


def test_the_population_is_luns_times_their_queue_depth() -> None:
    w = with_data(_data(count=8, queue_depth=16)).workloads[0]
    assert w.queue_depth == 128
    assert w.is_closed


def test_the_hba_queue_depth_caps_each_host() -> None:
    w = with_data(_data(count=16, queue_depth=32, hosts=2, hba_queue_depth=100)).workloads[0]
    assert w.queue_depth == 200
    assert w.luns is not None
    assert "capped by 2 host(s) x HBA queue depth 100 = 200" in w.luns.basis


def test_the_derived_population_is_shown_and_an_alternative_can_change_the_luns() -> None:
    data = _data(count=4, queue_depth=16)
    data["analyses"] = {"compare": [{"name": "twice", "set": {"workloads.oltp.luns.count": 8}}]}
    sp = predict_scenario(with_data(data), load_catalog())
    assert [p.closed.population for p in sp.configurations if p.closed] == [64, 128]
    shown = sp.baseline.inputs.workloads[0]
    assert shown.population_basis == "4 LUNs x queue depth 16 = 64 I/Os in flight"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"users": 10}, "give either 'luns' or 'queue_depth'/'users', not both"),
        ({"queue_depth": 7}, "give either 'luns' or 'queue_depth'/'users', not both"),
        ({"iops": 100}, "not both"),
    ],
)
def test_luns_and_another_load_are_refused(extra: dict[str, Any], message: str) -> None:
    data = _data(count=4, queue_depth=16)
    data["workloads"][0].update(extra)
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert message in str(caught.value)


def test_a_population_beyond_the_solver_is_refused_with_the_derivation() -> None:
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(_data(count=65536, queue_depth=1024))
    assert "65,536 LUNs x queue depth 1,024" in str(caught.value)
