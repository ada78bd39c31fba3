"""A large space's search on a Dask cluster (issue 30 item 3): the batched search
(`size_batch`, beyond 512 configurations) solves and skips the same configurations, and its
JSON is the same bytes, in one process, over the process pool and on a cluster. The batches
are a function of the space alone, so the bounds see the same solved set after each whatever
runs them; this checks it end to end through the cluster's own path (the context scattered
once, the batch sent as tasks that keep each back end's configurations together, the results
gathered in the batch's order).
Speed is measured in bench/bench_size_dask.py, not here."""

from __future__ import annotations

from typing import Any

import pytest

from diskmodel.analyses import cluster
from diskmodel.analyses.size import size_scenario
from diskmodel.analyses.size_batch import PER_CONFIGURATION_UP_TO, back_end
from diskmodel.analyses.size_space import OfferedSpace
from diskmodel.analyses.size_try import SizingJob, _parts
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.report.json_result import sizing_json
from diskmodel.scenario import Scenario
from tests.support.dask import local_cluster

from ..conftest import ROOT

distributed = pytest.importorskip("distributed")

GROWTH = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"


def _space() -> Scenario:
    """The growth scenario over 640 configurations (past the 512 where the batched search
    starts): 0-9 SSD ranks x 4 counts of 15K ranks x 4 DA pair counts x 2 host port counts
    x both processor options."""
    catalog = load_catalog()
    data: dict[str, Any] = load_scenario(GROWTH).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.3, "per": "year", "periods": 3}
    size = data["analyses"]["size"]
    size["ranks"] = [
        {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": list(range(10))},
        {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [8, 16, 24, 32]},
    ]
    size["da_pairs"] = [1, 2, 4, 8]
    size["host_ports"] = [4, 16]
    size["processor_ways"] = [2, 4]
    return Scenario.model_validate(data, context={"catalog": catalog})


def test_a_large_space_on_a_cluster_gives_the_same_bytes() -> None:
    scenario = _space()
    assert scenario.analyses.size is not None
    n = scenario.analyses.size.candidates
    assert n > PER_CONFIGURATION_UP_TO  # the batched search, not the per-configuration one
    here = size_scenario(scenario, workers=1)
    pool = size_scenario(scenario, workers=2)
    with local_cluster(2) as cluster:
        there = size_scenario(scenario, scheduler=cluster.scheduler_address)
    assert "in batches" in here.method
    # Every configuration settled once (the current one is added when it is not offered).
    assert len(here.candidates) + len(here.pruned) == len(OfferedSpace(scenario)) >= n
    assert here.pruned, "nothing skipped: the runners' agreement on the bounds is not tested"
    expected = sizing_json(here)
    assert sizing_json(pool) == expected
    assert sizing_json(there) == expected


def _profiling(dask_worker: Any) -> list[bool]:
    return [dask_worker.periodic_callbacks[name].is_running() for name in cluster.PROFILER]


def test_the_workers_profiler_is_paused_for_the_search_and_started_again() -> None:
    """Dask's statistical profiler cost a quarter of the workers' CPU on the search
    (`cluster.PROFILER`): it is stopped on every worker while the client is held, and each
    worker's is as it was after."""
    with (
        local_cluster(2) as local,
        distributed.Client(local.scheduler_address) as watcher,
    ):
        before = watcher.run(_profiling)
        assert len(before) == 2
        assert all(all(running) for running in before.values())
        with cluster.dask_client(local.scheduler_address, {"search": 1}) as (client, _):
            assert client.run(_profiling) == {w: [False, False] for w in before}
        assert watcher.run(_profiling) == before


@pytest.mark.parametrize("chunks", [1, 3, 8, 1000])
def test_a_batch_is_split_into_tasks_that_keep_each_back_end_in_one(chunks: int) -> None:
    space = OfferedSpace(_space().corner("central"))
    jobs = [SizingJob({}, space.choice(i), False, offered=True) for i in range(0, len(space), 3)]
    parts = _parts(jobs, chunks, back_end)
    assert sorted(k for part in parts for k in part) == list(range(len(jobs)))  # each once
    assert all(part == sorted(part) for part in parts)  # in the batch's order
    keys = {back_end(job) for job in jobs}
    assert len(parts) == min(chunks, len(keys))
    held = {back_end(jobs[k]): n for n, part in enumerate(parts) for k in part}
    assert all(held[back_end(jobs[k])] == n for n, part in enumerate(parts) for k in part)
    sizes = [len(part) for part in parts]  # balanced within the largest back end's count
    biggest = max(sum(back_end(job) == key for job in jobs) for key in keys)
    assert max(sizes) - min(sizes) <= biggest
    consecutive = _parts(jobs, chunks, None)
    assert [k for part in consecutive for k in part] == list(range(len(jobs)))


@pytest.mark.parametrize(("cores", "working", "slots"), [(1, 1, 1), (2, 2, 2), (8, 3, 3)])
def test_the_search_runs_on_the_workers_the_host_s_cores_hold(
    monkeypatch: pytest.MonkeyPatch, cores: int, working: int, slots: int
) -> None:
    """Three single-thread workers on one host with `cores` cores: the search's tasks run on
    as many of them as the cores hold (`cluster.working_workers`), the rest stay spare, and
    the answer is the same bytes as in one process."""
    scenario = _space()
    expected = sizing_json(size_scenario(scenario, workers=1))
    monkeypatch.setattr(cluster, "_cores", lambda: cores)
    with local_cluster(3) as local, distributed.Client(local.scheduler_address) as watcher:
        chosen, found = cluster.working_workers(watcher)
        assert (len(chosen), found) == (working, slots)
        assert chosen == tuple(sorted(watcher.scheduler_info()["workers"]))[:working]
        with distributed.get_task_stream(client=watcher) as stream:
            there = size_scenario(scenario, scheduler=local.scheduler_address)
        ran = {task["worker"] for task in stream.data}
    assert ran
    assert ran <= set(chosen)
    assert sizing_json(there) == expected


def test_a_worker_s_threads_beyond_its_host_s_cores_are_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster, "_cores", lambda: 1)
    with (
        local_cluster(1, threads_per_worker=2) as local,
        distributed.Client(local.scheduler_address) as watcher,
    ):
        assert cluster.working_workers(watcher) == (
            tuple(watcher.scheduler_info()["workers"]),
            1,
        )


def test_where_no_worker_says_where_it_sits_every_worker_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that cannot answer `_seat` (another diskmodel, a broken worker): the search
    is not restricted, a task at a time per worker, and the answer is the same bytes."""
    scenario = _space()
    expected = sizing_json(size_scenario(scenario, workers=1))

    def cannot(dask_worker: Any) -> tuple[str, int, int]:
        raise RuntimeError("no seat")

    monkeypatch.setattr(cluster, "_seat", cannot)
    with local_cluster(3) as local, distributed.Client(local.scheduler_address) as watcher:
        assert cluster.working_workers(watcher) == ((), 3)
        there = size_scenario(scenario, scheduler=local.scheduler_address)
    assert sizing_json(there) == expected
