"""The catalog band of a z/OS configuration: the FICON channel's estimated figures
(`hardware_catalog/zos.yaml`) are tried with the system's, and where the channels bind, the
band names them and moves the maximum exactly as the channels' closed form says."""

from __future__ import annotations

from diskmodel.analyses.catalog_band import catalog_band, estimates
from diskmodel.api.predicting import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.prediction import CatalogBandResult
from diskmodel.scenario import Scenario
from diskmodel.units import MB, US

from ..conftest import ROOT

SIZING = ROOT / "scenarios" / "ds8800-zos-ficon-sizing.yaml"
COMMAND = "FICON command-mode work per I/O"
BANDWIDTH = "FICON channel bandwidth"
PEND = "light-load PEND time"


def alternative(name: str) -> Scenario:
    catalog = load_catalog()
    return dict(load_scenario(SIZING, catalog).alternatives(catalog))[name]


def band(scenario: Scenario) -> tuple[Configuration, CatalogBandResult]:
    catalog = load_catalog()
    config = resolve(scenario, catalog)
    return config, catalog_band(config, catalog, lambda cat: resolve(scenario, cat))


def saturation_iops(config: Configuration, per_io_us: float, bandwidth_mb_s: float) -> float:
    """The closed form: the channels saturate where rate x work per I/O / channels = 1, the
    work per I/O being the command work plus the transfer at the channel's bandwidth, over
    the planned mix of the workloads' reads and writes."""
    ficon = config.hardware.ficon
    assert ficon is not None
    rates = Solver(config).planned_rates()
    work_s = sum(
        rate
        * sum(
            p * (per_io_us * US + w.mix.size_bytes(c) / (bandwidth_mb_s * MB))
            for c, p in w.mix.fractions.items()
            if p > 0
        )
        for rate, w in zip(rates, config.workloads, strict=True)
    )
    return float(ficon.channels * rates.sum() / work_s)


def test_the_channel_figures_tried_are_those_of_the_mode_it_runs() -> None:
    catalog = load_catalog()
    zhpf = resolve(load_scenario(SIZING, catalog), catalog)
    command = resolve(alternative("4 channels, command mode"), catalog)
    tried = {e.path for e in estimates(zhpf, catalog) if e.entry == "ficon-express-8s"}
    assert tried == {"ficon-express-8s.bandwidth_mb_s", "ficon-express-8s.pend_light_us"}
    tried = {e.label for e in estimates(command, catalog) if e.entry == "ficon-express-8s"}
    assert tried == {BANDWIDTH, COMMAND, PEND}
    # The scenario's own light-load PEND is not the catalog's to vary.
    scenario = alternative("4 channels, command mode")
    system = scenario.system
    assert system.ficon is not None
    ficon = system.ficon.model_copy(update={"pend_light_us": 55.0})
    given = scenario.model_copy(update={"system": system.model_copy(update={"ficon": ficon})})
    assert PEND not in {e.label for e in estimates(resolve(given, catalog), catalog)}


def test_four_channels_in_command_mode_the_band_names_the_channel_work_first() -> None:
    config, result = band(alternative("4 channels, command mode"))
    effects = {c.label: c for c in result.contributors}
    assert result.contributors[0].label == COMMAND
    assert result.bottleneck_estimated
    command = effects[COMMAND]
    assert (command.low, command.value, command.high) == (43.5, 50.0, 71.4)
    # Each end of the range moves the maximum to where the channels saturate, or just below:
    # the HyperPAV pool's device queue (model.device_limit) saturates first, where the time
    # below z/OS grows without bound, within 1% of the channels' load (the channels are then
    # at least 99% busy).
    for end, found in zip((command.low, command.high), command.max_iops, strict=True):
        assert_just_below(found, saturation_iops(config, end, 800.0))
    assert command.moves_max
    bandwidth = effects[BANDWIDTH]
    assert_just_below(bandwidth.max_iops[0], saturation_iops(config, 50.0, 620.0))
    # The corners: every channel figure at its slow end, then at its fast end.
    assert_just_below(result.max_iops[0], saturation_iops(config, 71.4, 620.0))
    assert_just_below(result.max_iops[1], saturation_iops(config, 43.5, 800.0))


def assert_just_below(found: float, channels_saturate: float) -> None:
    assert channels_saturate * 0.99 <= found <= channels_saturate * (1 + 2e-4)


def test_the_light_load_pend_splits_the_time_and_moves_no_answer() -> None:
    # pend_light_us moves time between PEND and CONN (model.results): the response time and
    # the maximum stay, so it is tried and never a contributor.
    _, result = band(alternative("4 channels, command mode"))
    assert PEND not in {c.label for c in result.contributors}
