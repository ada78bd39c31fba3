"""The HTML sizing report: a `ScenarioPrediction` -> plain view records -> one self-contained page.

Stage one (`build_report`) reads the prediction, and nothing else, and writes every sentence,
figure, alert, chart and table as plain records (`diskmodel.report.view`); stage two
(`render_report`) places them in the jinja2 template shipped in `diskmodel/report/templates/`
(autoescape on, undefined names are errors). The page holds its CSS and its charts (inline
SVG), runs no script and loads nothing, so it opens from disk anywhere and prints as it looks:
the answer, charts and result tables on a few A4 pages, the inputs and catalog figures as a
compact appendix.

The same input gives the same bytes; the only line that changes between runs is the
generation time and version at the foot of the page, left out with `timestamp=False`.

What the page says first, per configuration: the response time at the planned load, the
planning maximum (the highest rate at which every limit of the service level is met, and the
limit that binds), the maximum to saturation and what limits it, the headroom to each, the
rate at the response-time target; then the alerts a planner must not miss (a component above
70% or 90% busy, NVS full, the service level not met, SSD ranks unbalanced across the two
servers in a pool that has SSD ranks, data that does not fit its tier).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from diskmodel import __version__
from diskmodel.prediction import Prediction, ScenarioPrediction
from diskmodel.report import (
    application_tables,
    calibration_view,
    chart_views,
    component_tables,
    copy_services_tables,
    display,
    input_tables,
    log_tables,
    phrases,
    result_tables,
    rmf_tables,
    size_tables,
    spread,
)
from diskmodel.report.charts import CRITICAL_UTILIZATION, WARN_UTILIZATION
from diskmodel.report.phrases import (
    bottleneck_text,
    catalog_band_sentence,
    headroom_text,
    population_count,
)
from diskmodel.report.view import Alert, Answer, HeadlineFigure, Level, Report, Table

# --------------------------------------------------------------------------- public API


def render_html(
    prediction: ScenarioPrediction,
    *,
    appendix: bool = False,
    timestamp: bool = True,
    scenarios: object = None,
) -> str:
    """The whole report as one HTML document.

    `appendix`: print the component detail, the inputs and the appendix too (on screen the
    page always shows them). `timestamp=False` leaves out the one line that differs between
    runs. `scenarios` is accepted and ignored (callers still pass it; everything the page
    shows comes from the prediction).
    """
    del scenarios
    # The charts' worker (`diskmodel run`) draws the charts while this process compiles the
    # template and writes the rest of the page (0.06-0.08 s of a 0.25-0.45 s report).
    chart_views.hand_ahead(prediction)
    _template()
    generated = _generated_line() if timestamp else None
    report = build_report(prediction, generated)
    return render_report(dataclasses.replace(report, print_appendix=appendix))


def render_report(report: Report) -> str:
    """Stage two: place the view records in the page template."""
    return _template().render(report=report)


@cache
def _template() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("diskmodel.report", "templates"),
        autoescape=True,  # every .j2 and the included CSS: text from a scenario is only text
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    ).get_template("report.html.j2")


def _generated_line() -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"Generated {now} by diskmodel {__version__}."


# --------------------------------------------------------------------------- stage one


def build_report(prediction: ScenarioPrediction, generated: str | None = None) -> Report:
    """Stage one: every sentence, alert, chart and table of the page, as plain records."""
    configs = prediction.configurations
    baseline = configs[0]
    per_config = [_alerts(p) for p in configs]
    answers = tuple(
        _answer(p, baseline, _worst(found)) for p, found in zip(configs, per_config, strict=True)
    )
    calibrated = prediction.calibration
    if calibrated is not None:
        # The first screen says how well the model was calibrated, and warns when it failed.
        first = answers[0]
        answers = (
            dataclasses.replace(
                first, sentences=(*first.sentences, calibration_view.verdict(calibrated))
            ),
            *answers[1:],
        )
        failed = calibration_view.alert(calibrated)
        if failed is not None:
            per_config[0] = [*per_config[0], failed]
    figures, sources = input_tables.catalog_figures(configs)
    return Report(
        title=prediction.scenario,
        description=prediction.description.strip(),
        answers=answers,
        alerts=tuple(a for found in per_config for a in found),
        all_clear=_all_clear(configs),
        charts=tuple(chart_views.charts_for(prediction)),
        tables=tuple(_result_tables(prediction)),
        inputs=(
            input_tables.configuration_table(configs),
            input_tables.workload_table(configs),
            input_tables.service_level_inputs_table(configs),
        ),
        appendix=(
            input_tables.assumptions_table(configs),
            input_tables.defaults_table(configs),
            figures,
        ),
        sources=sources,
        generated=generated,
        calibration=None if calibrated is None else calibration_view.calibration_view(calibrated),
    )


def _result_tables(prediction: ScenarioPrediction) -> list[Table]:
    configs = prediction.configurations
    tables = [
        result_tables.results_table(configs),
        result_tables.service_level_table(configs),
    ]
    if any(p.growth for p in configs):
        tables.append(result_tables.growth_table(configs))
    if prediction.tier_sweep:
        tables.append(result_tables.tier_sweep_table(prediction))
    if prediction.sizing is not None:
        tables.append(size_tables.sizing_table(prediction.sizing))
    if any(p.application for p in configs):
        tables.append(application_tables.applications_table(configs))
        if configs[0].application is not None:
            tables.append(application_tables.users_table(configs[0]))
    if any(p.logs for p in configs):
        tables.append(log_tables.logs_table(configs))
        tables.extend(log_tables.striping_tables(configs[0].logs))
    if any(rmf_tables.has_zos(p) for p in configs):
        tables.append(rmf_tables.rmf_table(configs))
    tables.extend(component_tables.components_tables(configs))
    if any(p.tiers for p in configs):
        tables.append(component_tables.tiers_table(configs))
    if any(component_tables.shows_allocation(p) for p in configs):
        tables.append(component_tables.allocation_table(configs))
    if copy_services_tables.shows_copy_services(configs):
        tables.append(copy_services_tables.copy_services_table(configs))
    return tables


# --------------------------------------------------------------------------- the answer


def _population_text(p: Prediction) -> str:
    assert p.closed is not None
    if p.closed.population_kind == "users":
        return (
            f"With {p.closed.population:,} users and "
            f"{display.milliseconds(p.closed.think_time_ms)} ms think time"
        )
    return f"At a host queue depth of {p.closed.population:,}"


def _population_short(p: Prediction) -> str:
    count, kind = population_count(p)
    return f"{count:,} users" if kind == "users" else f"queue depth {count:,}"


def _answer(p: Prediction, baseline: Prediction, level: Level) -> Answer:
    sentences = [_verdict_sentence(p), _planning_sentence(p)]
    if p.catalog_band is not None:
        reach = catalog_band_sentence(p.catalog_band)
        if reach is not None:
            sentences.append(reach)
    if p is not baseline:
        sentences.append(_comparison(p, baseline))
    return Answer(
        configuration=p.name,
        sentences=tuple(sentences),
        figures=tuple(_headline_figures(p)),
        level=level,
        notes=p.notes,
    )


def _saturation_text(p: Prediction) -> str:
    return f"{display.rate_3sf(p.max_iops)} IOPS, limited by {bottleneck_text(p)}"


def _verdict_sentence(p: Prediction) -> str:
    """The answer's first sentence: what the application or the closed system settles at, or
    the response time at the planned load, or that the load saturates the system."""
    rt = p.response_time_ms
    app = p.application
    if app is not None:
        return (
            f"With {app.users:,} users of {app.name} the application runs "
            f"{display.number(app.at.transactions_per_s)} transactions per second at "
            f"{display.milliseconds(app.at.response_time_ms)} ms each (storage "
            f"{display.milliseconds(app.at.storage_ms)} ms of it); the storage settles at "
            f"{display.rate(app.at.storage_iops)} IOPS with an average response time of "
            f"{display.milliseconds(app.at.storage_response_time_ms)} ms, and {app.limited_by} "
            "bounds the transaction rate."
        )
    if p.closed is not None:
        return (
            f"{_population_text(p)} the system settles at {display.rate(p.closed.iops)} IOPS "
            f"with an average response time of {display.milliseconds(p.closed.response_time_ms)}"
            f" ms; the bottleneck is {bottleneck_text(p)}."
        )
    if p.saturated or rt is None:
        return (
            f"At {display.rate(p.planned_iops)} IOPS the system is saturated: it carries at "
            f"most {_saturation_text(p)}."
        )
    return (
        f"At {display.rate(p.planned_iops)} IOPS the average response time is "
        f"{display.milliseconds(rt)} ms."
    )


def _planning_sentence(p: Prediction) -> str:
    """Whether the service level is met at this load, how far it holds, and (an open load
    that does not saturate) where the system saturates."""
    level = p.service_level
    broken = f" ({display.broken_text(level.broken)})" if level.broken else ""
    planning = (
        f"The service level is {'met' if level.met else 'not met'} at this load{broken} and "
        f"holds up to {display.rate_3sf(level.max_iops)} IOPS ({level.binding} binds)"
    )
    if p.closed is None and not (p.saturated or p.response_time_ms is None):
        return planning + f", and the system saturates at {_saturation_text(p)}."
    return planning + "."


def _headline_figures(p: Prediction) -> list[HeadlineFigure]:
    """The answer's figures: the application's transaction rate (if one), the response time,
    a closed system's throughput, the planning maximum and saturation, an open load's
    headroom to each, the rate at the target and the busiest component."""
    rt = p.response_time_ms
    level = p.service_level
    app = p.application
    figures = [
        HeadlineFigure(
            f"{display.milliseconds(rt)} ms" if rt is not None else display.SATURATED_TEXT,
            f"response time at {display.rate(p.planned_iops)} IOPS",
        )
    ]
    if app is not None:
        figures.insert(
            0,
            HeadlineFigure(
                f"{display.number(app.at.transactions_per_s)}/s",
                f"transactions at {app.users:,} users",
            ),
        )
    if p.closed is not None:
        # A closed system's load is its population: it settles below its limit by itself, so
        # "headroom above the planned load" has no meaning; its throughput is the answer.
        figures.append(
            HeadlineFigure(
                f"{display.rate(p.closed.iops)} IOPS", f"throughput at {_population_short(p)}"
            )
        )
    figures.append(
        HeadlineFigure(
            f"{display.rate_3sf(level.max_iops)} IOPS", f"planning maximum ({level.binding})"
        )
    )
    figures.append(HeadlineFigure(f"{display.rate_3sf(p.max_iops)} IOPS", "maximum (saturation)"))
    if p.closed is None:
        figures.append(
            HeadlineFigure(
                headroom_text(level.max_iops, p.planned_iops), "headroom to the planning maximum"
            )
        )
        figures.append(
            HeadlineFigure(headroom_text(p.max_iops, p.planned_iops), "headroom to saturation")
        )
    target = p.inputs.service_level.response_time_ms
    figures.append(
        HeadlineFigure(
            f"{display.rate_3sf(level.iops_at_target)} IOPS"
            if level.iops_at_target is not None
            else "not reached",
            f"IOPS at {display.number(target)} ms",
        )
    )
    busiest = max(p.components, key=lambda c: c.utilization, default=None)
    if busiest is not None:
        figures.append(
            HeadlineFigure(display.percent(busiest.utilization), f"busiest: {busiest.name}")
        )
    return figures


def _comparison(p: Prediction, baseline: Prediction) -> str:
    """One sentence comparing an alternative with the baseline."""
    parts = [f"Against {baseline.name}: "]
    if p.application is not None and baseline.application is not None:
        mine, theirs = p.application.at, baseline.application.at
        rate = _relative(mine.transactions_per_s, theirs.transactions_per_s, "more", "fewer")
        time = _relative(mine.response_time_ms, theirs.response_time_ms, "longer", "shorter")
        parts.append(
            f"{rate} transactions per second at the same users, {time} transaction response time"
        )
    elif p.closed is not None and baseline.closed is not None:
        parts.append(
            f"{_relative(p.closed.iops, baseline.closed.iops, 'more', 'less')} throughput at "
            "the same population"
        )
    else:
        planning = _relative(
            p.service_level.max_iops, baseline.service_level.max_iops, "higher", "lower"
        )
        parts.append(
            f"{planning} planning maximum, "
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


def _worst(alerts: Sequence[Alert]) -> Level:
    """The level of an answer card: that of its most serious alert."""
    levels = {a.level for a in alerts}
    return "critical" if "critical" in levels else "warning" if "warning" in levels else "ok"


# --------------------------------------------------------------------------- alerts


def _alerts(p: Prediction) -> list[Alert]:
    out: list[Alert] = []
    if p.saturated:
        out.append(
            Alert(
                "critical",
                p.name,
                f"the planned load of {display.rate(p.planned_iops)} IOPS is more than this "
                f"configuration can carry ({display.rate_3sf(p.max_iops)} IOPS, limited by "
                f"{bottleneck_text(p)}).",
            )
        )
    if p.nvs_full:
        out.append(
            Alert(
                "critical",
                p.name,
                "NVS is full at the planned load: the back end cannot destage writes as fast "
                "as they arrive, so host writes wait for destages.",
            )
        )
    # In the order of `service_level.broken`: what binds first, first.
    order = {label: i for i, label in enumerate(p.service_level.broken)}
    broken = sorted(
        (lim for lim in p.service_level.limits if not lim.met),
        key=lambda lim: order.get(lim.label, len(order)),
    )
    if broken and not p.saturated:
        out.append(
            Alert(
                "warning",
                p.name,
                "the service level is not met at the planned load: "
                + "; ".join(
                    f"{lim.label} ({phrases.margin_text(lim).removeprefix('not met, ')})"
                    for lim in broken
                )
                + ".",
            )
        )
    out.extend(_utilization_alerts(p))
    out.extend(_log_alerts(p))
    out.extend(copy_services_tables.copy_services_alerts(p))
    for tier in p.tiers:
        if tier.used_gb > tier.capacity_gb * (1 + 1e-9):
            out.append(
                Alert(
                    "critical",
                    p.name,
                    f"pool {tier.pool}: the {tier.tier} tier holds "
                    f"{display.capacity_gb(tier.capacity_gb)} but "
                    f"{display.capacity_gb(tier.used_gb)} of data is placed there.",
                )
            )
    for pool, count, uneven in spread.uneven_ssd(p):
        out.append(
            Alert(
                "warning",
                p.name,
                f"pool {pool}: its {count} SSD ranks are not spread evenly ({uneven}): the DA "
                "pair and the server holding more of them carry more of the hot I/O, which can "
                "lower the maximum. Spread them evenly (system.rank_placement: balanced does, "
                "as far as the count allows; an odd count over two cannot be even).",
            )
        )
    return out


def _log_alerts(p: Prediction) -> list[Alert]:
    """A log whose writes are always in progress, and a stripe count that commits slower than
    another would."""
    out: list[Alert] = []
    for log in p.logs:
        if log.writer_busy is not None and log.writer_busy >= 1.0:
            out.append(
                Alert(
                    "critical",
                    p.name,
                    f"log {log.name}: {display.rate(log.commit_rate)} commits/s of "
                    f"{log.commit_time_us:,.0f} us each keep a log write in progress "
                    f"{display.percent(log.writer_busy)} of the time: commits must overlap or "
                    "be grouped.",
                )
            )
        if log.mean_commit_us is not None and log.best_stripes != log.stripes:
            faster = log.mean_commit_us[log.stripe_counts.index(log.best_stripes)]
            out.append(
                Alert(
                    "warning",
                    p.name,
                    f"log {log.name}: with {log.stripes} stripe"
                    f"{'s' if log.stripes > 1 else ''} a commit takes "
                    f"{log.commit_time_us:,.0f} us on average; with {log.best_stripes} stripe"
                    f"{'s' if log.best_stripes > 1 else ''} it would take {faster:,.0f} us at "
                    "this page mix (see the log's table).",
                )
            )
    return out


def _utilization_alerts(p: Prediction) -> list[Alert]:
    """One alert per component group above 70% (critical above 90%), naming the busiest."""
    out: list[Alert] = []
    for plural, members in component_tables.component_groups(p.components):
        hot = sorted(
            (c for c in members if c.utilization >= WARN_UTILIZATION),
            key=lambda c: -c.utilization,
        )
        if not hot:
            continue
        peak = hot[0]
        level: Level = "critical" if peak.utilization >= CRITICAL_UTILIZATION else "warning"
        if len(hot) == 1:
            text = f"{peak.name} is {display.percent(peak.utilization)} busy"
        else:
            text = (
                f"{len(hot)} of {len(members)} {plural.removesuffix(' (per drive)')} are above "
                f"{display.percent(WARN_UTILIZATION, 0)} busy, the busiest {peak.name} at "
                f"{display.percent(peak.utilization)}"
            )
        threshold = CRITICAL_UTILIZATION if level == "critical" else WARN_UTILIZATION
        text += f" (above {display.percent(threshold, 0)}: queueing delay grows quickly with load)."
        out.append(Alert(level, p.name, text))
    return out


def _all_clear(configs: Sequence[Prediction]) -> str:
    """What the page says when there is no alert: only the checks that apply."""
    checks = [
        f"No component above {display.percent(WARN_UTILIZATION, 0)} busy at the planned load",
        "NVS not full",
        "the service level met",
    ]
    if any(p.tiers for p in configs):
        checks.append("every tier's data fits")
    if any(spread.ssd_spread(p) for p in configs):
        # Only when no alert is shown, so no SSD ranks are uneven (`spread.uneven_ssd`).
        checks.append("SSD ranks spread evenly over the DA pairs and the servers")
    return ", ".join(checks) + "."
