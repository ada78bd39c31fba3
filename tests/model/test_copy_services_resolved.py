"""Copy services resolved from the shipped scenarios: Global Mirror's link budget against the
measured week, FlashCopy's first-write share from the workload's skew, the secondary solved
under the replicated writes. Properties with stated tolerances, not pinned figures."""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components.replication import coordination_added_s, first_write_fraction
from diskmodel.configuration import Configuration
from diskmodel.configuration.copy_services import (
    CopyServicesConfig,
    copy_services_inputs,
    resolve_copy_services,
)
from diskmodel.configuration.resolution import resolve
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import PoolLayout
from diskmodel.model.network import Network
from diskmodel.model.network_build import NetworkBuilder
from diskmodel.model.secondary import secondary_writes
from diskmodel.prediction.copy_services import GlobalMirrorBudget
from diskmodel.scenario.loading import load_scenario
from diskmodel.units import KIB, MB

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _resolved(name: str, **change: object) -> CopyServicesConfig:
    path = SCENARIOS / name
    scenario = load_scenario(path)
    if change:
        cs = scenario.copy_services
        assert cs is not None
        assert cs.links is not None
        links = cs.links.model_copy(update=change)
        scenario = scenario.model_copy(
            update={"copy_services": cs.model_copy(update={"links": links})}
        )
    catalog = load_catalog()
    config = resolve(scenario, catalog, path.parent)
    resolved = resolve_copy_services(
        scenario.corner("central"),
        catalog,
        path.parent,
        per_op_us=config.hardware.host_adapter.per_io_overhead_us,
        skews={w.name: w.skew for w in config.workloads},
        resolve_secondary=lambda s: resolve(s, catalog),
    )
    assert resolved is not None
    return resolved


def _week_write_mb_s() -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    with (SCENARIOS / "measured" / "ds8800-week.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rate, read = float(row["io_rate"]), float(row["read_fraction"])
            out[row["time"]] += rate * (1 - read) * float(row["write_kib"]) * KIB / MB
    return out


def test_global_mirror_carries_every_measured_interval_s_writes() -> None:
    cs = _resolved("ds8800-global-mirror-week.yaml")
    assert cs.global_mirror is not None
    expected = _week_write_mb_s()
    got = dict(cs.global_mirror.intervals)
    assert got.keys() == expected.keys()
    for time, mb in expected.items():
        assert got[time] == pytest.approx(mb, rel=1e-12)
    assert cs.global_mirror.interval_s == 900.0


def test_two_oc3_lines_are_too_slow_for_the_week_and_three_are_not() -> None:
    budget, warnings = _budget("ds8800-global-mirror-week.yaml")
    assert budget.peak_utilization > 1.0
    assert budget.intervals_behind > 0
    assert budget.links_needed == 3
    assert any("too slow for the peak" in w for w in warnings)
    assert any("beyond the target of 60 s" in w for w in warnings)
    # The recovery point is at least the group interval plus formation, and grows with the
    # backlog: RPO_i - (interval + formation) = backlog_i / capacity.
    floor = budget.group_interval_s + budget.formation_s
    for rpo, backlog in zip(budget.rpo_s, budget.backlog_mb, strict=True):
        assert rpo - floor == pytest.approx(backlog / budget.capacity_mb_s, abs=1e-9)
    three, warnings3 = _budget("ds8800-global-mirror-week.yaml", count=3)
    assert three.peak_utilization < 1.0
    assert three.max_backlog_mb == 0.0
    assert three.drain_s == 0.0
    assert not warnings3


def _budget(name: str, **change: object) -> tuple[GlobalMirrorBudget, tuple[str, ...]]:
    inputs = copy_services_inputs(_resolved(name, **change))
    assert inputs.global_mirror is not None
    return inputs.global_mirror, inputs.warnings


def test_coordination_hold_is_half_ibm_s_whole_hold_bound() -> None:
    # IBM Redbook 'DS6000 Series: Copy Services with IBM System z', 25.2: 5,000 writes/s,
    # 3 ms coordination every 3 s: "(15 IOs x 0.003 s) / (3 x 5000 IO/s) = 0.003 ms", every
    # held write counted for the whole hold. A write that arrives during the hold waits for
    # the rest of it: half on average.
    ibm_s = 15 * 0.003 / (3 * 5000)
    assert coordination_added_s(0.003, 3.0) == pytest.approx(ibm_s / 2, rel=1e-12)


def test_flashcopy_share_follows_the_workload_s_skew() -> None:
    cs = _resolved("ds8800-flashcopy-backup.yaml")
    config = resolve(load_scenario(SCENARIOS / "ds8800-flashcopy-backup.yaml"))
    assert cs is not None
    (fc,) = cs.flashcopies
    w = config.workloads[fc.workload]
    destages = w.iops * 0.3 * 0.6  # 30% writes, destage ratio 0.6
    tracks = w.capacity_gb * 1e9 / (64 * KIB)
    uniform = first_write_fraction(destages, tracks, 8 * 3600.0)
    assert 0.0 < fc.first_write_fraction < uniform
    # One track read on the source and one track write on the target per first write.
    assert fc.work.source_reads_per_write == pytest.approx(0.6 * fc.first_write_fraction)
    assert fc.work.target_writes_per_write == fc.work.source_reads_per_write


def test_the_secondary_write_is_its_front_end_at_light_load_and_grows_to_saturation() -> None:
    cs = _resolved("ds8800-metro-mirror-distance.yaml")
    secondary = cs.secondary
    assert secondary is not None

    def build(c: Configuration, placed: Mapping[str, PoolLayout], costs: OpCosts) -> Network:
        return NetworkBuilder(c, costs).build(placed)

    light = secondary_writes(secondary, [10.0], build)
    planned = secondary_writes(secondary, [2700.0], build)
    heavy = secondary_writes(secondary, [50_000.0], build)
    # At light load an 8 KiB write takes the fixed front-end time (150 us) plus its copy
    # into cache and NVS (3.24 us per KiB) plus the port's transfer (8 KiB at 760 MB/s).
    fixed = 150e-6 + 3.24e-6 * 8 + 8 * KIB / (760 * MB)
    assert light.write_s[0] == pytest.approx(fixed, rel=0.02)
    assert light.write_s[0] <= planned.write_s[0]
    assert heavy.saturated
    assert math.isinf(heavy.write_s[0])


def test_the_link_budget_is_worked_out_once_for_the_same_links_and_intervals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every resolution of a run (bands, alternatives, catalog estimates) reads one budget for
    the same Global Mirror and links, equal to one worked out afresh; other links, another."""
    from diskmodel.configuration import copy_services

    copy_services._budgets.clear()
    calls: list[int] = []
    carried = copy_services.global_mirror_intervals

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return carried(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(copy_services, "global_mirror_intervals", counted)
    first = _resolved("ds8800-global-mirror-week.yaml")
    again = _resolved("ds8800-global-mirror-week.yaml")
    budget, warnings = copy_services.global_mirror_budget(first)
    assert copy_services.global_mirror_budget(again) == (budget, warnings)
    assert len(calls) == 1
    warnings.append("a caller's own list")  # not the one kept
    copy_services._budgets.clear()
    assert copy_services.global_mirror_budget(again) == (budget, warnings[:-1])
    assert len(calls) == 2
    three, _ = copy_services.global_mirror_budget(
        _resolved("ds8800-global-mirror-week.yaml", count=3)
    )
    assert len(calls) == 3
    assert three is not None
    assert budget is not None
    assert three.capacity_mb_s == pytest.approx(1.5 * budget.capacity_mb_s, rel=1e-12)
