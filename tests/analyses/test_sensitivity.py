"""The catalog estimates' effect on a prediction (issue 11): each scaled on its own."""

from __future__ import annotations

import pytest

from diskmodel.analyses.sensitivity import PARAMETERS, sensitivity
from diskmodel.catalog import load_catalog
from diskmodel.scenario import load_scenario

from ..conftest import ROOT


def test_each_parameter_changes_only_its_own_figures() -> None:
    catalog = load_catalog()
    ds8800 = catalog.systems["ds8800-951"]
    for name, make in PARAMETERS:
        changed = make(1.25)(catalog)
        s = changed.systems["ds8800-951"]
        if name.startswith("device adapter cost"):
            assert s.device_adapter.per_op_us == pytest.approx(
                ds8800.device_adapter.per_op_us * 1.25
            )
            assert s.device_adapter.bandwidth_mb_s == ds8800.device_adapter.bandwidth_mb_s
        if name.startswith("SSD internal"):
            assert changed.drives["ssd-300"].ssd_parallelism == round(
                catalog.drives["ssd-300"].ssd_parallelism * 1.25
            )
            assert changed.drives["15k-300"] is catalog.drives["15k-300"]
    assert load_catalog().systems["ds8800-951"] is ds8800  # the shipped catalog is untouched


def test_the_bundled_example_hinges_on_the_device_adapter_estimate() -> None:
    """Its bottleneck is DA pair 0: a cheaper DA operation raises the maximum, a dearer one
    lowers it; the estimates of parts that are not the bottleneck barely move it."""
    path = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    _, _, rows = sensitivity(load_scenario(path), path.parent)
    by_name = {r.parameter: r for r in rows}
    da = by_name["device adapter cost per operation"]
    assert da.max_iops[0] > 1.15
    assert da.max_iops[1] < 0.9
    for name in ("host port overhead per I/O", "processor costs per I/O"):
        assert by_name[name].max_iops == pytest.approx((1.0, 1.0), abs=0.01)
