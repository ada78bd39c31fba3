"""The charts' worker process (`report.chart_worker`): what it draws is what the report's own
process draws, byte for byte, and when it cannot answer the chart is drawn in process as
before, a bad specification raising there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from diskmodel.report import chart_svg, chart_worker, charts

from .test_report_charts import _all_specs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker() -> Iterator[None]:
    chart_worker.stop()
    chart_worker.start()
    yield
    chart_worker.stop()


def _drawn(specs: list[charts.ChartSpec]) -> list[str]:
    return [chart_svg.render(f"c{i}", spec) for i, spec in enumerate(specs)]


def test_the_worker_draws_the_same_bytes_as_the_process(worker: None) -> None:
    specs = _all_specs("A")
    assert chart_worker._workers, "the worker did not start"
    by_worker = _drawn(specs)
    assert chart_worker._workers, "the worker stopped answering"
    chart_worker.stop()
    assert _drawn(specs) == by_worker


def test_a_dead_worker_leaves_the_chart_to_the_process(worker: None) -> None:
    specs = _all_specs("B")
    chart_worker._workers[0].kill()
    chart_worker._workers[0].wait()
    assert chart_worker.convert(specs[0].spec, chart_svg.VEGA_LITE_VERSION) is None
    assert not chart_worker._workers  # stopped, not asked again
    chart_worker.stop()
    assert _drawn(specs)[0].startswith("<svg")


def test_a_specification_the_worker_cannot_draw_raises_in_the_process(worker: None) -> None:
    bad = charts.ChartSpec("bad", {"mark": "no-such-mark", "data": {"values": []}})
    assert chart_worker.convert(bad.spec, chart_svg.VEGA_LITE_VERSION) is None
    assert chart_worker._workers, "an error answer keeps the worker"
    with pytest.raises(ValueError):  # noqa: PT011 - vl-convert's own message
        chart_svg.render("bad", bad)


def test_a_specification_json_cannot_carry_is_drawn_in_process(worker: None) -> None:
    assert chart_worker.convert({"x": {1, 2}}, chart_svg.VEGA_LITE_VERSION) is None


def test_run_writes_the_same_report_with_the_worker_as_without(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from diskmodel.cli.app import app

    scenario = ROOT / "scenarios" / "ds8800-15k-pool.yaml"
    chart_worker.stop()
    runner = CliRunner()
    args = ["run", str(scenario), "--quiet", "--no-timestamp", "--no-catalog-bands"]
    with_worker = tmp_path / "with.html"
    assert runner.invoke(app, [*args, "-o", str(with_worker)]).exit_code == 0
    assert chart_worker._workers, "run started no worker"
    chart_worker.stop()
    from diskmodel import api

    prediction = api.predict(
        api.load_scenario(scenario), base_dir=scenario.parent, catalog_bands=False
    )
    assert with_worker.read_text(encoding="utf-8") == api.render_html(prediction, timestamp=False)


def test_stop_ends_a_worker_still_starting_without_waiting_for_it() -> None:
    """A run that stops before its report (a refused scenario) does not wait for the runtime
    to start: the worker is ended while it starts, by a signal, not after it has started."""
    chart_worker.stop()
    chart_worker.start()
    (process,) = chart_worker._workers
    chart_worker.stop()
    assert process.returncode is not None
    assert process.returncode < 0  # killed, not an exit after the runtime started
    assert chart_worker.convert({"mark": "point"}, "v5_20") is None  # no worker is asked


def test_charts_handed_ahead_are_drawn_once_and_the_page_is_the_same(worker: None) -> None:
    """`hand_ahead` asks the worker for every chart; the page's own pass then finds each one
    asked (nothing is asked twice) and writes the page it writes without a worker."""
    from diskmodel import api
    from diskmodel.report.chart_views import charts_for, hand_ahead

    scenario = ROOT / "scenarios" / "ds8800-15k-pool.yaml"
    prediction = api.predict(
        api.load_scenario(scenario), base_dir=scenario.parent, catalog_bands=False
    )
    hand_ahead(prediction)
    asked = len(chart_worker._asked)
    assert asked == len(charts_for(prediction)) > 0  # (this pass found them all asked)
    with_worker = api.render_html(prediction, timestamp=False)
    assert len(chart_worker._asked) == asked
    chart_worker.stop()
    assert api.render_html(prediction, timestamp=False) == with_worker


def test_charts_asked_of_a_worker_that_dies_are_all_answered(worker: None) -> None:
    """A worker that dies with charts still asked for leaves none waiting: each is answered
    (None, and drawn in process) or was drawn before it died."""
    specs = _all_specs("C")
    answers = [chart_worker.ask(s.spec, chart_svg.VEGA_LITE_VERSION) for s in specs]
    chart_worker._workers[0].kill()
    got = [a.result(timeout=30) for a in answers if a is not None]
    assert len(got) == len(specs)
    assert all(svg is None or svg.startswith("<svg") for svg in got)
    if None in got:  # it was found dead: retired, and not asked again
        assert not chart_worker._workers
        assert chart_worker.ask(specs[0].spec, chart_svg.VEGA_LITE_VERSION) is None


def test_charts_handed_in_two_steps_are_those_of_the_page_each_asked_once(worker: None) -> None:
    """`diskmodel run` hands the charts drawn from the configurations alone before the bands
    are known (`hand_configurations_ahead`), then the rest (`hand_ahead(configurations=
    False)`): together exactly the page's charts, none asked twice, the page unchanged. The
    Global Mirror week has a band over an input range (read by the response chart only)."""
    import dataclasses

    from diskmodel import api
    from diskmodel.report.chart_views import charts_for, hand_ahead, hand_configurations_ahead

    scenario = ROOT / "scenarios" / "ds8800-global-mirror-week.yaml"
    prediction = api.predict(
        api.load_scenario(scenario), base_dir=scenario.parent, catalog_bands=False
    )
    assert prediction.baseline.band is not None
    unbanded = [dataclasses.replace(p, band=None) for p in prediction.configurations]
    hand_configurations_ahead(unbanded)
    early = len(chart_worker._asked)
    hand_ahead(prediction, configurations=False)
    asked = len(chart_worker._asked)
    assert 0 < early < asked
    assert charts_for(prediction)  # (this pass found them all asked)
    assert len(chart_worker._asked) == asked
    with_worker = api.render_html(prediction, timestamp=False)
    assert len(chart_worker._asked) == asked
    chart_worker.stop()
    assert api.render_html(prediction, timestamp=False) == with_worker
