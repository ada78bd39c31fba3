"""The FICON channels' ceiling as a planning limit: a z/OS configuration's service level has it
beside the four kinds every configuration has, it can bind the planning maximum, and the growth
steps measure it."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from diskmodel.analyses.limits import limits
from diskmodel.analyses.predict import predict_configuration
from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.scenario import Scenario
from diskmodel.units import MB
from diskmodel.vocabulary import COMPONENT_KINDS

from ..conftest import ROOT

SIZING = ROOT / "scenarios" / "ds8800-zos-ficon-sizing.yaml"


def sizing_config(**ficon: Any) -> Configuration:
    """The shipped channel-sizing scenario's baseline with `system.ficon` changed."""
    data = yaml.safe_load(SIZING.read_text(encoding="utf-8"))
    data["system"]["ficon"].update(ficon)
    data["analyses"] = {"curve": {"points": 12}}
    catalog = load_catalog()
    return resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)


def channel_busy_per_total_iops(config: Configuration) -> float:
    """The closed form: a channel's utilisation per I/O/s of the whole load, at the planned
    mix. z/OS spreads each I/O over the channels evenly, so one channel's utilisation is
    rate x work per I/O / channels, the work per I/O being the channel's command work in
    its mode plus the transfer at the channel's bandwidth (each workload's mix of reads and
    writes, sizes as the workload gives them)."""
    ficon = config.hardware.ficon
    assert ficon is not None
    rates = Solver(config).planned_rates()
    work_s = 0.0
    for rate, workload in zip(rates, config.workloads, strict=True):
        mix = workload.mix
        per_io = sum(
            p * (ficon.per_io_s + mix.size_bytes(c) / (ficon.channel.bandwidth_mb_s * MB))
            for c, p in mix.fractions.items()
            if p > 0
        )
        work_s += rate * per_io
    return work_s / rates.sum() / ficon.channels


def test_a_z_os_service_level_has_the_channels_ceiling_after_the_four_kinds() -> None:
    config = sizing_config()
    kinds = [lim.component_kind for lim in limits(config.service_level) if lim.component_kind]
    assert kinds == [*COMPONENT_KINDS, "channel"]
    channel = limits(config.service_level)[-1]
    assert channel.target == 0.5
    assert channel.label == "FICON channel utilisation ≤ 50%"


def test_few_channels_in_command_mode_bind_the_planning_maximum_at_their_ceiling() -> None:
    config = sizing_config(channels=4, zhpf=False)
    p = predict_configuration(config)
    expected = 0.5 / channel_busy_per_total_iops(config)
    # 4 channels of 50 us + the transfer: about 31,900 I/O/s, under the planned 42,500.
    assert 25_000 < expected < 42_500
    assert p.service_level.binding == "FICON channel utilisation ≤ 50%"
    # The search stops within 1e-4 of the load (analyses.limits).
    assert p.service_level.max_iops == pytest.approx(expected, rel=2e-4)
    assert p.service_level.max_iops < p.max_iops
    channel = next(lim for lim in p.service_level.limits if lim.label.startswith("FICON"))
    assert channel.component == "FICON channel 0 (ficon-express-8s)"
    assert not channel.met
    assert channel.value == pytest.approx(42_500 / expected * 0.5, rel=1e-9)
    assert "FICON channel utilisation ≤ 50%" in p.service_level.broken


def test_with_zhpf_the_channels_ceiling_is_further_than_the_da_pairs() -> None:
    config = sizing_config()
    p = predict_configuration(config)
    channel = next(lim for lim in p.service_level.limits if lim.label.startswith("FICON"))
    assert channel.max_iops == pytest.approx(0.5 / channel_busy_per_total_iops(config), rel=2e-4)
    assert p.service_level.max_iops < channel.max_iops  # another limit binds first
    assert p.service_level.binding == "DA pair utilisation ≤ 70%"


def test_the_growth_steps_measure_the_channels() -> None:
    config = sizing_config(channels=4, zhpf=False)
    p = predict_configuration(config, growth=(1.0, 0.5))
    now, half = p.growth
    busy = channel_busy_per_total_iops(config)
    assert list(now.utilization) == [*COMPONENT_KINDS, "channel"]
    assert now.utilization["channel"] == pytest.approx(42_500 * busy, rel=1e-9)
    assert half.utilization["channel"] == pytest.approx(21_250 * busy, rel=1e-9)
    assert now.binding == "FICON channel utilisation ≤ 50%"
    assert half.meets_service_level


def test_an_open_systems_service_level_keeps_its_four_kinds() -> None:
    from diskmodel.api.predicting import load_scenario

    catalog = load_catalog()
    config = resolve(load_scenario(ROOT / "scenarios" / "ds8800-15k-pool.yaml", catalog), catalog)
    kinds = [lim.component_kind for lim in limits(config.service_level) if lim.component_kind]
    assert kinds == list(COMPONENT_KINDS)


def test_the_rmf_table_says_where_the_channels_reach_their_ceiling() -> None:
    from diskmodel.report.display import rate_3sf
    from diskmodel.report.rmf_tables import channel_lines

    config = sizing_config(channels=4, zhpf=False)
    p = predict_configuration(config)
    expected = rate_3sf(0.5 / channel_busy_per_total_iops(config))
    assert channel_lines(p) == (
        "FICON channels: 4, busiest 66.6%, above the ceiling",
        f"channel ceiling 50%: reached at {expected} IOPS",
    )
    assert expected == "31,900"
    # Eight channels in zHPF: below the ceiling at the planned load, reached far above it.
    p = predict_configuration(sizing_config())
    assert channel_lines(p)[0] == "FICON channels: 8, busiest 12.5%"
    assert channel_lines(p)[1].startswith("channel ceiling 50%: reached at ")
