"""The Solver's operation costs shared between workloads of one mix (`model.mix_costs`): every
figure is the one `OpCosts` gives each workload, and the drive physics is evaluated once per
distinct (mix, rank kind, span), however many workloads share the mix (issue 30 item 5)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.model.costs import OpCosts
from diskmodel.model.mix_costs import MixCosts, mix_key

from ..support.builders import BASE, with_data

SPANS = (0.05, 0.3, 1.0)


def _config(copies: int) -> Configuration:
    """A two-tier Easy Tier pool with `copies` workloads of each of two mixes, interleaved."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto"
    data["pools"][0]["ranks"] = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 4},
    ]
    oltp = data["workloads"][0]
    batch = {**oltp, "read_size_kib": 64, "write_size_kib": 64, "read_sequential_fraction": 0.6}
    data["workloads"] = [
        {**(oltp if k % 2 == 0 else batch), "name": f"w{k}", "iops": 300, "capacity_gb": 300}
        for k in range(2 * copies)
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


def test_every_workload_gets_exactly_its_own_costs() -> None:
    config = _config(3)
    shared, own = MixCosts(config), OpCosts(config)
    for w, workload in enumerate(config.workloads):
        for rank in config.ranks:
            assert shared.span_free(w, workload.mix, rank) == own.span_free(w, workload.mix, rank)
            for span in SPANS:
                assert shared.of(w, workload.mix, rank, span) == own.of(w, workload.mix, rank, span)
                assert np.array_equal(
                    shared.op_table(w, workload.mix, rank, span),
                    own.op_table(w, workload.mix, rank, span),
                )


def test_drive_physics_runs_once_per_distinct_mix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: 2 mixes x 2 rank kinds x 3 spans, whether each mix has 1 workload
    or 8; `OpCosts` alone evaluates them once per workload."""
    counts = {}
    for copies in (1, 8):
        config = _config(copies)
        for costs in (MixCosts(config), OpCosts(config)):
            calls = _counted(monkeypatch)
            for w, workload in enumerate(config.workloads):
                for rank in config.ranks:
                    for span in SPANS:
                        costs.of(w, workload.mix, rank, span)
            counts[copies, type(costs).__name__] = calls[0]
    assert counts[1, "MixCosts"] == counts[8, "MixCosts"] == counts[1, "OpCosts"]
    assert counts[8, "OpCosts"] == 8 * counts[1, "OpCosts"]


def test_mixes_that_differ_in_any_field_are_kept_apart() -> None:
    config = _config(1)
    a, b = (w.mix for w in config.workloads)
    assert mix_key(a) != mix_key(b)
    assert mix_key(a) == mix_key(copy.deepcopy(a))


def test_the_solver_shares_costs_by_mix() -> None:
    assert isinstance(Solver(_config(1)).costs, MixCosts)
