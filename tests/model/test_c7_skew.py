"""Properties of the C7 skew presets example (the published figures themselves are validated
through the product in tests/validation: scenarios/validation/c7-skew-presets.yaml)."""

from __future__ import annotations

import itertools

import pytest

from diskmodel import validation
from diskmodel.catalog import load_catalog, parse_catalog_file

LEVELS = ("2", "3.5", "7", "14", "24")


@pytest.fixture(scope="module")
def result() -> dict:  # type: ignore[type-arg]
    return validation.Run().result("c7-skew-presets.yaml")  # type: ignore[no-any-return]


@pytest.mark.parametrize("share", ["5%", "8%"])
def test_more_skew_never_lowers_max_iops(result: dict, share: str) -> None:  # type: ignore[type-arg]
    """The property the published figures show: each preset above the last carries more,
    until Easy Tier holds the SSD tier at its utilisation target. From there the SSD carries
    the same load whatever the skew, and a higher skew leaves it its hottest extents only, the
    HDDs the rest of the data on a longer stroke: the maximum may then fall a little (the
    HDDs' seeks over the extra span), never by more than 1%."""
    tops = [
        validation.read_path(result, f"configurations[name=skew {level}, SSD {share}].max_iops")
        for level in LEVELS
    ]
    assert all(b > a for a, b in itertools.pairwise(tops[:4]))
    assert tops[4] >= 0.99 * tops[3]


def test_the_examples_ssds_are_the_catalogs_146_gb_ssd_but_for_capacity() -> None:
    """c7-ssd.yaml copies the catalog's ssd-146 figures (a user catalog cannot inherit): they
    must stay equal, or the C7 band would be computed on another SSD than the catalog's."""
    path = validation.FOLDER / "c7-ssd.yaml"
    copies = parse_catalog_file(path.read_text(encoding="utf-8"), str(path)).drives
    shipped = load_catalog().drives["ssd-146"]
    skip = {"name", "capacity_gb", "packaging", "provenance"}
    for copy in copies:
        for key in type(shipped).model_fields:
            if key not in skip:
                assert getattr(copy, key) == getattr(shipped, key), (copy.name, key)
