"""The HTML sizing report: a `ScenarioPrediction` -> plain view records -> one self-contained page.

Stage one (`build_report`) reads the prediction and the validated scenarios it was computed
from and writes every sentence, figure, warning, chart and table as plain records
(`diskmodel.report.view`); stage two (`render_report`) places them in the jinja2 template
shipped in `diskmodel/report/templates/` (autoescape on, undefined names are errors). The page
holds its CSS and its charts (inline SVG), runs no script and loads nothing, so it opens from
disk anywhere and prints as it looks.

The same input gives the same bytes; the only line that changes between runs is the
generation time and version at the foot of the page, left out with `timestamp=False`.

What the page says first, per configuration: the response time at the planned load, the
saturation rate and what limits it, then the warnings a planner must not miss (a component
above 70% or 90% busy, NVS full, SSD ranks unbalanced across the two servers, data that does
not fit its tier).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import jinja2

from diskmodel import __version__
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.output import write_output
from diskmodel.prediction import ComponentResult, Prediction, ScenarioPrediction
from diskmodel.report import chart_views, charts, display, result_tables, scenario_tables
from diskmodel.report.view import Answer, Chart, HeadlineFigure, Level, Report, Table, Warning
from diskmodel.scenario import Scenario

WARN_UTILIZATION = charts.WARN_UTILIZATION
CRITICAL_UTILIZATION = charts.CRITICAL_UTILIZATION

KIND_PLURAL = {
    "host_adapter": "host adapter ports",
    "processor": "processor servers",
    "device_adapter": "device adapter pairs",
    "rank": "ranks",
}

Configurations = Sequence[tuple[str, Scenario]]


# --------------------------------------------------------------------------- public API


def render_html(
    prediction: ScenarioPrediction,
    *,
    scenarios: Configurations | None = None,
    timestamp: bool = True,
    catalog: Catalog | None = None,
) -> str:
    """The whole report as one HTML document.

    `scenarios` are the validated inputs, `(name, Scenario)` baseline first, in the order of
    `prediction.configurations` (what `Scenario.alternatives()` returns); without them the
    configuration, workload and catalog-assumption tables are left out and say so.
    `timestamp=False` leaves out the one line that differs between runs.
    """
    generated = _generated_line() if timestamp else None
    report = build_report(prediction, scenarios, catalog or load_catalog(), generated)
    return render_report(report)


def write_report(
    prediction: ScenarioPrediction,
    path: Path | str,
    *,
    scenarios: Configurations | None = None,
    timestamp: bool = True,
    force: bool = False,
) -> Path:
    """Write the report to `path` atomically (never over a file diskmodel did not write,
    unless `force`); return the path written."""
    text = render_html(prediction, scenarios=scenarios, timestamp=timestamp)
    return write_output(Path(path), text, force=force)


def render_report(report: Report) -> str:
    """Stage two: place the view records in the page template."""
    return _environment().get_template("report.html.j2").render(report=report)


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("diskmodel.report", "templates"),
        autoescape=True,  # every .j2 and the included CSS: text from a scenario is only text
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _generated_line() -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"Generated {now} by diskmodel {__version__}."


# --------------------------------------------------------------------------- stage one


def build_report(
    prediction: ScenarioPrediction,
    scenarios: Configurations | None,
    catalog: Catalog,
    generated: str | None = None,
) -> Report:
    """Stage one: every sentence, warning, chart and table of the page, as plain records."""
    configs = prediction.configurations
    if scenarios is not None and [n for n, _ in scenarios] != [p.name for p in configs]:
        raise ValueError(
            "scenarios and prediction disagree on the configurations: "
            f"{[n for n, _ in scenarios]} vs {[p.name for p in configs]}"
        )
    inputs = [s for _, s in scenarios] if scenarios is not None else [None] * len(configs)
    baseline = configs[0]
    per_config = [_warnings(p, s, catalog) for p, s in zip(configs, inputs, strict=True)]
    answers = tuple(
        _answer(p, baseline, s, _worst(found))
        for p, s, found in zip(configs, inputs, per_config, strict=True)
    )
    warnings = tuple(w for found in per_config for w in found)
    description = inputs[0].description.strip() if inputs[0] is not None else ""
    return Report(
        title=prediction.scenario,
        description=description,
        answers=answers,
        warnings=warnings,
        charts=tuple(_charts(configs, inputs)),
        tables=tuple(_tables(prediction, scenarios, catalog)),
        warn_threshold=display.percent(WARN_UTILIZATION, 0),
        generated=generated,
    )


# --------------------------------------------------------------------------- the answer


def _bottleneck_text(p: Prediction) -> str:
    """The bottleneck as a planner reads it: "device adapter pair 1", "host port 3"."""
    if p.bottleneck_kind == "device_adapter":
        return p.bottleneck.replace("DA pair", "device adapter pair")
    return p.bottleneck


def _population_text(p: Prediction, scenario: Scenario | None) -> str:
    assert p.closed is not None
    if _population_is_users(p, scenario):
        return (
            f"With {p.closed.population:,} users and "
            f"{display.milliseconds(p.closed.think_time_ms)} ms think time"
        )
    return f"At a host queue depth of {p.closed.population:,}"


def _population_short(p: Prediction, scenario: Scenario | None) -> str:
    assert p.closed is not None
    if _population_is_users(p, scenario):
        return f"{p.closed.population:,} users"
    return f"queue depth {p.closed.population:,}"


def _population_is_users(p: Prediction, scenario: Scenario | None) -> bool:
    if scenario is not None:
        return any(w.users is not None for w in scenario.workloads)
    return p.closed is not None and p.closed.think_time_ms > 0


def _answer(p: Prediction, baseline: Prediction, scenario: Scenario | None, level: Level) -> Answer:
    limit = f"{display.rate_3sf(p.max_iops)} IOPS, limited by {_bottleneck_text(p)}"
    rt = p.response_time_ms
    if p.closed is not None:
        first = (
            f"{_population_text(p, scenario)} the system settles at "
            f"{display.rate(p.closed.iops)} IOPS with an average response time of "
            f"{display.milliseconds(p.closed.response_time_ms)} ms; the bottleneck is "
            f"{_bottleneck_text(p)}."
        )
    elif p.saturated or rt is None:
        first = (
            f"At {display.rate(p.planned_iops)} IOPS the system is saturated: it carries at "
            f"most {limit}."
        )
    else:
        first = (
            f"At {display.rate(p.planned_iops)} IOPS the average response time is "
            f"{display.milliseconds(rt)} ms; the system saturates at {limit}."
        )
    sentences = [first]
    if p is not baseline:
        sentences.append(_comparison(p, baseline))
    busiest = max(p.components, key=lambda c: c.utilization, default=None)
    figures = [
        HeadlineFigure(
            f"{display.milliseconds(rt)} ms" if rt is not None else display.SATURATED_TEXT,
            f"response time at {display.rate(p.planned_iops)} IOPS",
        )
    ]
    if p.closed is not None:
        # A closed system's load is its population: it settles below its limit by itself, so
        # "headroom above the planned load" has no meaning; its throughput is the answer.
        figures.append(
            HeadlineFigure(
                f"{display.rate(p.closed.iops)} IOPS",
                f"throughput at {_population_short(p, scenario)}",
            )
        )
    else:
        figures.append(HeadlineFigure(f"{display.rate_3sf(p.max_iops)} IOPS", "saturation"))
    if p.closed is None and p.planned_iops > 0 and not p.saturated:
        figures.append(
            HeadlineFigure(
                display.percent(max(0.0, p.max_iops / p.planned_iops - 1.0), 0),
                "headroom above the planned load",
            )
        )
    if busiest is not None:
        figures.append(
            HeadlineFigure(display.percent(busiest.utilization), f"busiest: {busiest.name}")
        )
    return Answer(
        configuration=p.name,
        sentences=tuple(sentences),
        figures=tuple(figures),
        level=level,
        notes=p.notes,
    )


def _comparison(p: Prediction, baseline: Prediction) -> str:
    """One sentence comparing an alternative with the baseline: saturation, then response."""
    parts = [f"Against {baseline.name}: "]
    if p.closed is not None and baseline.closed is not None:
        parts.append(
            f"{_relative(p.closed.iops, baseline.closed.iops, 'more', 'less')} throughput at "
            "the same population"
        )
    else:
        parts.append(
            f"{_relative(p.max_iops, baseline.max_iops, 'higher', 'lower')} saturation rate"
        )
        if p.response_time_ms is not None and baseline.response_time_ms is not None:
            change = _relative(p.response_time_ms, baseline.response_time_ms, "longer", "shorter")
            parts.append(f", {change} response time at the planned load")
    parts.append(".")
    return "".join(parts)


def _relative(value: float, reference: float, up: str, down: str) -> str:
    """ "12.5% higher", "2.4 times the", "the same": `value` against `reference`."""
    if reference <= 0 or not math.isfinite(value / reference):
        return "a different"
    ratio = value / reference
    if abs(ratio - 1.0) < 0.0005:
        return "the same"
    if ratio >= 2.0:
        return f"{ratio:.1f} times the"
    return f"{display.percent(abs(ratio - 1.0))} {up if ratio > 1 else down}"


def _worst(warnings: Sequence[Warning]) -> Level:
    """The level of an answer card: that of its most serious warning."""
    levels = {w.level for w in warnings}
    return "critical" if "critical" in levels else "warning" if "warning" in levels else "ok"


# --------------------------------------------------------------------------- warnings


def _warnings(p: Prediction, scenario: Scenario | None, catalog: Catalog) -> list[Warning]:
    out: list[Warning] = []
    if p.saturated:
        out.append(
            Warning(
                "critical",
                p.name,
                f"the planned load of {display.rate(p.planned_iops)} IOPS is more than this "
                f"configuration can carry ({display.rate_3sf(p.max_iops)} IOPS, limited by "
                f"{_bottleneck_text(p)}).",
            )
        )
    if p.nvs_full:
        out.append(
            Warning(
                "critical",
                p.name,
                "NVS is full at the planned load: the back end cannot destage writes as fast "
                "as they arrive, so host writes wait for destages.",
            )
        )
    out.extend(_utilization_warnings(p))
    for tier in p.tiers:
        if tier.used_gb > tier.capacity_gb * (1 + 1e-9):
            out.append(
                Warning(
                    "critical",
                    p.name,
                    f"pool {tier.pool}: the {tier.tier} tier holds "
                    f"{display.capacity_gb(tier.capacity_gb)} but "
                    f"{display.capacity_gb(tier.used_gb)} of data is placed there.",
                )
            )
    if scenario is not None:
        balance = scenario_tables.ssd_rank_balance(scenario, catalog)
        if balance is not None and abs(balance[0] - balance[1]) > 1:
            out.append(
                Warning(
                    "warning",
                    p.name,
                    f"SSD ranks are not balanced across the two servers ({balance[0]} on "
                    f"server 0, {balance[1]} on server 1): one server's SSD ranks and "
                    "processor carry most of the hot I/O. Spread them evenly.",
                )
            )
    return out


def _utilization_warnings(p: Prediction) -> list[Warning]:
    """One warning per component kind above 70% (critical above 90%), naming the busiest."""
    out: list[Warning] = []
    for kind in _kinds(p.components):
        members = [c for c in p.components if c.kind == kind]
        hot = sorted(
            (c for c in members if c.utilization >= WARN_UTILIZATION),
            key=lambda c: -c.utilization,
        )
        if not hot:
            continue
        peak = hot[0]
        level: Level = "critical" if peak.utilization >= CRITICAL_UTILIZATION else "warning"
        plural = KIND_PLURAL.get(kind, kind)
        if len(hot) == 1:
            text = f"{peak.name} is {display.percent(peak.utilization)} busy"
        else:
            text = (
                f"{len(hot)} of {len(members)} {plural} are above "
                f"{display.percent(WARN_UTILIZATION, 0)} busy, the busiest {peak.name} at "
                f"{display.percent(peak.utilization)}"
            )
        threshold = CRITICAL_UTILIZATION if level == "critical" else WARN_UTILIZATION
        text += f" (above {display.percent(threshold, 0)}: queueing delay grows quickly with load)."
        out.append(Warning(level, p.name, text))
    return out


def _kinds(components: Sequence[ComponentResult]) -> list[str]:
    seen: list[str] = []
    for c in components:
        if c.kind not in seen:
            seen.append(c.kind)
    return seen


# --------------------------------------------------------------------------- charts


def _charts(configs: Sequence[Prediction], inputs: Sequence[Scenario | None]) -> list[Chart]:
    return chart_views.charts_for(configs, inputs)


# --------------------------------------------------------------------------- tables


def _tables(
    prediction: ScenarioPrediction, scenarios: Configurations | None, catalog: Catalog
) -> list[Table]:
    configs = prediction.configurations
    tables = [result_tables.results_table(configs)]
    tables.append(result_tables.components_table(configs))
    if any(p.tiers for p in configs):
        tables.append(result_tables.tiers_table(configs))
    if prediction.growth:
        tables.append(result_tables.growth_table(prediction))
    if prediction.tier_sweep:
        tables.append(result_tables.tier_sweep_table(prediction))
    if scenarios is not None:
        tables.insert(0, scenario_tables.workload_table(scenarios))
        tables.insert(0, scenario_tables.configuration_table(scenarios, catalog))
        model_notes = result_tables.model_assumptions(configs, [s for _, s in scenarios])
        tables.append(scenario_tables.assumptions_table(scenarios, catalog, model_notes))
    return tables
