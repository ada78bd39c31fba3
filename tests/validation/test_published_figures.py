"""The published figures through the product (`pytest -m validation`): every figure of
scenarios/validation/figures.yaml, read from its scenario's JSON result as `diskmodel run
--json` writes it (diskmodel/validation/). A figure the product misses is a strict xfail that
states the measured error; a fitted figure is kept reproduced but is not validation; a catalog
input is checked to be the published value. docs/validation.md must match a fresh run."""

from __future__ import annotations

import pytest

from diskmodel import validation

pytestmark = pytest.mark.validation

MANIFEST = validation.load_manifest()


@pytest.fixture(scope="module")
def run() -> validation.Run:
    return validation.Run()


@pytest.mark.parametrize("spec", MANIFEST.figures, ids=[f.id for f in MANIFEST.figures])
def test_published_figure(
    run: validation.Run, spec: validation.FigureSpec, request: pytest.FixtureRequest
) -> None:
    outcome = run.outcome(spec)
    message = (
        f"{spec.id}: predicted {outcome.predicted_label}, published {spec.published_label}, "
        f"error {outcome.error_label}, tolerance {spec.tolerance_label}"
    )
    if spec.known_miss:
        request.applymarker(
            pytest.mark.xfail(strict=True, reason=f"known miss ({message}): {spec.known_miss}")
        )
    assert outcome.ok, message


def test_the_page_matches_a_fresh_run(run: validation.Run) -> None:
    """docs/validation.md is what `python -m diskmodel.validation --write` gives today."""
    assert validation.PAGE.read_text(encoding="utf-8") == validation.page(run), (
        "docs/validation.md is stale: make catalog"
    )


def test_every_validation_scenario_is_used() -> None:
    """No scenario in scenarios/validation is orphaned (each belongs to a figure)."""
    used = {f.scenario for f in MANIFEST.figures if f.scenario}
    scenarios = {
        p.name
        for p in validation.FOLDER.glob("*.yaml")
        if p.name != validation.MANIFEST and "schema_version: 1\nname:" in p.read_text()
    }
    assert scenarios <= used, sorted(scenarios - used)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("a", 1.0),
        ("b[1].c", 3.0),
        ("b[*].c", 5.0),
        ("b[0:1].c", 2.0),
        ("b[name=y].c", 3.0),
    ],
)
def test_fields_are_read_as_documented(path: str, value: float) -> None:
    document = {"a": 1, "b": [{"name": "x", "c": 2}, {"name": "y", "c": 3}]}
    assert validation.read_path(document, path) == value


@pytest.mark.parametrize("path", ["nope", "b[name=z].c", "a[0]", "b[0].c.d", "b[0]]"])
def test_a_path_that_reads_nothing_is_an_error(path: str) -> None:
    with pytest.raises(ValueError, match=r"b|nope|a"):
        validation.read_path({"a": 1, "b": [{"name": "x", "c": 2}]}, path)


def test_judging_a_single_value_a_range_and_a_band() -> None:
    def spec(**kw: object) -> validation.FigureSpec:
        base: dict[str, object] = {
            "id": "x",
            "figure": "X",
            "quantity": "q",
            "source": "s",
            "scenario": "s.yaml",
            "read": "a",
        }
        return validation.FigureSpec.model_validate({**base, **kw})

    single = spec(published=100, tolerance={"relative": 0.1})
    assert validation.judge(single, (109.0, 109.0), None).ok
    miss = validation.judge(single, (89.0, 89.0), None)
    assert not miss.ok
    assert miss.error == pytest.approx(-0.11)
    ranged = spec(published=[5, 7])
    assert validation.judge(ranged, (6.0, 6.0), None).error == 0
    assert validation.judge(ranged, (7.7, 7.7), None).error == pytest.approx(0.1)
    band = spec(read=["a", "b"], published=4.0, tolerance={"relative": 0.1})
    assert validation.judge(band, (3.0, 3.7), None).ok  # 3.7 x 1.1 reaches 4
    low = validation.judge(band, (3.0, 3.5), None)
    assert not low.ok
    assert low.error == pytest.approx(3.5 / 4 - 1)
