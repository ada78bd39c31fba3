"""The answer over the catalog's estimates (diskmodel/analyses/catalog_band.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel.analyses.catalog_band import catalog_band, estimates
from diskmodel.analyses.predict import begin
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CATALOG = load_catalog()


def _band(name: str):  # type: ignore[no-untyped-def]
    scenario = load_scenario(SCENARIOS / name)
    config = resolve(scenario, CATALOG)
    begun = begin(config)
    result = catalog_band(config, CATALOG, lambda cat: resolve(scenario, cat))
    return config, begun, result


def test_the_da_bound_example_names_the_da_cost_first_and_holds_the_answer() -> None:
    """The bundled example is limited by a DA pair: the DA's cost per operation (an estimate)
    contributes most, each end of its range moves the maximum the way a slower adapter must,
    and the band holds the prediction made at the catalog's values."""
    _config, begun, band = _band("ds8800-15k-plus-2-ssd.yaml")
    top = band.contributors[0]
    assert top.key == "ds8800-951.device_adapter.per_op_us"
    assert top.max_iops[0] > begun.maximum > top.max_iops[1]  # cheaper DA: more IOPS
    assert band.max_iops[0] <= begun.maximum <= band.max_iops[1]
    assert band.bottleneck_estimated
    spreads = [c.max_spread for c in band.contributors]
    assert spreads[0] == max(spreads)


def test_only_the_estimates_a_configuration_uses_are_tried() -> None:
    """An HDD-only pool tries no SSD figure; every estimate tried lies inside its range."""
    config = resolve(load_scenario(SCENARIOS / "ds8800-15k-pool.yaml"), CATALOG)
    tried = estimates(config, CATALOG)
    assert tried
    assert not any(e.key.startswith("ssd_") for e in tried)
    for e in tried:
        assert e.low <= e.value <= e.high
        assert e.low < e.high


def test_an_estimate_put_in_the_catalog_is_the_one_the_model_uses() -> None:
    config = resolve(load_scenario(SCENARIOS / "ds8800-15k-pool.yaml"), CATALOG)
    (da,) = [e for e in estimates(config, CATALOG) if e.key == "device_adapter.per_op_us"]
    changed = da.put(CATALOG, da.high)
    assert changed.systems["ds8800-951"].device_adapter.per_op_us == pytest.approx(da.high)
    assert CATALOG.systems["ds8800-951"].device_adapter.per_op_us == pytest.approx(da.value)


def test_a_closed_system_reports_each_contributor_as_the_product_solves_it() -> None:
    """A closed system is screened with open calls; what it reports for a contributor is the
    whole prediction at that end of the range, not the screen."""
    from diskmodel.analyses.band import planned_ms

    scenario = load_scenario(SCENARIOS / "ds8800-oltp-application.yaml")
    config, begun, band = _band("ds8800-oltp-application.yaml")
    assert config.has_closed
    assert band.contributors
    (est,) = [e for e in estimates(config, CATALOG) if e.path == band.contributors[0].key]
    at_low = begin(resolve(scenario, est.put(CATALOG, est.low)))
    top = band.contributors[0]
    assert top.max_iops[0] == pytest.approx(at_low.maximum)
    assert top.response_time_ms[0] == pytest.approx(planned_ms(at_low.planned))
    assert band.max_iops[0] <= begun.maximum <= band.max_iops[1]


def test_the_band_shared_out_in_any_pieces_is_the_band_made_in_one() -> None:
    """`CatalogBandWork` in pieces (two takers in turns, then one taker that stopped half-way,
    its estimates worked out by `result`) gives the band `catalog_band` makes in one go."""
    from diskmodel.analyses.catalog_band import CatalogBandWork

    scenario = load_scenario(SCENARIOS / "ds8800-15k-plus-2-ssd.yaml")
    config = resolve(scenario, CATALOG)

    def rebuild(cat):  # type: ignore[no-untyped-def]
        return resolve(scenario, cat)

    whole = catalog_band(config, CATALOG, rebuild)
    assert whole.contributors  # the comparison below compares something
    work = CatalogBandWork(config, CATALOG, rebuild)
    n = len(work.tried)
    odd, even = (
        work.found(range(1, n, 2)),
        CatalogBandWork(config, CATALOG, rebuild).found(range(0, n, 2)),
    )
    assert sorted({**odd, **even}) == list(range(n))
    assert work.result({**odd, **even}) == whole
    assert work.result(even) == whole  # the odd ones missing: worked out by result


def test_the_central_answer_taken_from_a_prediction_is_the_one_begun_again() -> None:
    """`begun_elsewhere`: the baseline's beginnings, after `predict_configuration` went on
    from them, give the band the central answer a fresh beginning gives, to the bit; a
    closed configuration (whose screen solves more on the central solver) begins again."""
    import numpy as np

    from diskmodel.analyses.catalog_band import CatalogBandWork
    from diskmodel.analyses.predict import predict_configuration

    for name, closed in (
        ("ds8800-15k-plus-2-ssd.yaml", False),
        ("ds8800-oltp-application.yaml", True),
    ):
        scenario = load_scenario(SCENARIOS / name)
        config = resolve(scenario, CATALOG)

        def rebuild(cat, scenario=scenario):  # type: ignore[no-untyped-def]
            return resolve(scenario, cat)

        begun = begin(config)
        predict_configuration(config, (), (), begun)
        seeded = CatalogBandWork(config, CATALOG, rebuild)
        seeded.begun_elsewhere(begun)
        assert ("_central" in seeded.__dict__) is not closed
        fresh = CatalogBandWork(config, CATALOG, rebuild)._central
        taken = seeded._central
        assert taken.max_iops == fresh.max_iops
        assert taken.response_ms == fresh.response_ms
        assert taken.screened_response_ms == fresh.screened_response_ms
        assert np.array_equal(taken.rates, fresh.rates)
        assert np.array_equal(taken.unit, fresh.unit)
        assert taken.bracketed == fresh.bracketed
