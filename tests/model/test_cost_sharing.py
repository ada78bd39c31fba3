"""Operation costs shared between workloads of the same inputs (`OpCosts.kept`): every figure
is the one a workload's own `OpCosts` gives it, and the drive physics is evaluated once per
distinct (mix and FlashCopy work, rank kind, span), however many workloads share them (issue
30 item 5)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model.costs import OpCosts, mix_key
from diskmodel.scenario import Scenario
from diskmodel.scenario.loading import load_scenario

from ..support.builders import ssd_and_15k, with_data

SPANS = (0.05, 0.3, 1.0)
FC = Path(__file__).resolve().parents[2] / "scenarios" / "ds8800-flashcopy-backup.yaml"


def _config(copies: int, sizes: tuple[int, ...] = (4, 64)) -> Configuration:
    """A two-tier Easy Tier pool with `copies` workloads of each mix (one per I/O size in
    `sizes`), interleaved."""
    data = ssd_and_15k(1, 4)
    oltp = data["workloads"][0]
    mixes = [
        {**oltp, "read_size_kib": size, "write_size_kib": size, "read_sequential_fraction": 0.6}
        if size != 4
        else oltp
        for size in sizes
    ]
    data["workloads"] = [
        {**mixes[k % len(mixes)], "name": f"w{k}", "iops": 300, "capacity_gb": 300}
        for k in range(len(mixes) * copies)
    ]
    return resolve(with_data(data), load_catalog())


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the drive services `OpCosts` computes (one per operation, rank kind and span)."""
    calls = [0]
    at_span = OpCosts._at_span

    def counting(self: OpCosts, *args: Any) -> Any:
        calls[0] += 1
        return at_span(self, *args)

    monkeypatch.setattr(OpCosts, "_at_span", counting)
    return calls


def _assert_own_costs(config: Configuration, spans: tuple[float, ...]) -> None:
    """Every workload's costs from the shared `OpCosts` equal those of an `OpCosts` asked for
    that workload alone (nothing to share with: the plain path)."""
    shared = OpCosts(config)
    for w, workload in enumerate(config.workloads):
        own = OpCosts(config)
        mix = workload.mix
        for rank in config.ranks:
            assert shared.span_free(w, mix, rank) == own.span_free(w, mix, rank)
            for span in spans:
                assert shared.of(w, mix, rank, span) == own.of(w, mix, rank, span)
                assert np.array_equal(
                    shared.op_table(w, mix, rank, span), own.op_table(w, mix, rank, span)
                )


def test_every_workload_gets_exactly_its_own_costs() -> None:
    _assert_own_costs(_config(3), SPANS)


@settings(max_examples=15, deadline=None)
@given(
    sizes=st.lists(st.sampled_from([4, 8, 16, 64]), min_size=1, max_size=3),
    copies=st.integers(1, 3),
    spans=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=3),
)
def test_shared_costs_equal_each_workloads_own(
    sizes: list[int], copies: int, spans: list[float]
) -> None:
    """Varied mixes, repeated or not, in any order, at any spans."""
    _assert_own_costs(_config(copies, tuple(sizes)), tuple(spans))


def test_drive_physics_runs_once_per_distinct_mix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: 2 mixes x 2 rank kinds x 3 spans, whether each mix has 1 workload
    or 8."""
    counts = {}
    for copies in (1, 8):
        config = _config(copies)
        costs = OpCosts(config)
        calls = _counted(monkeypatch)
        for w, workload in enumerate(config.workloads):
            for rank in config.ranks:
                for span in SPANS:
                    costs.of(w, workload.mix, rank, span)
        counts[copies] = calls[0]
    assert counts[1] == counts[8] > 0


def test_mixes_that_differ_in_any_field_are_kept_apart() -> None:
    config = _config(1)
    a, b = (w.mix for w in config.workloads)
    assert mix_key(a) != mix_key(b)
    assert mix_key(a) == mix_key(copy.deepcopy(a))


def test_a_flashcopy_source_is_not_shared_with_a_workload_of_its_mix() -> None:
    """The FlashCopy's track copies are the source's operations only: a second workload of
    the same mix without a copy keeps its own (fewer) operations."""
    data = load_scenario(FC).model_dump(mode="python")
    data["workloads"][0]["capacity_gb"] = 10000
    twin = {**data["workloads"][0], "name": "twin"}
    data["workloads"] = [data["workloads"][0], twin]
    scenario = Scenario.model_validate(data, context={"catalog": load_catalog()})
    config = resolve(scenario, load_catalog(), FC.parent)
    source, other = config.workloads
    assert mix_key(source.mix) == mix_key(other.mix)
    costs = OpCosts(config)
    rank = config.ranks[0]
    copied = costs.of(0, source.mix, rank, 1.0)
    plain = costs.of(1, other.mix, rank, 1.0)
    assert costs.kept(1, other.mix) == 1
    assert len(copied) > len(plain)
    assert plain == OpCosts(config).of(1, other.mix, rank, 1.0)
