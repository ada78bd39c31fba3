"""Which charts a report shows, and the numbers each is drawn from.

Reads `Prediction`s only and hands plain series to the chart specifications
(`diskmodel.report.charts`, `bar_charts`, `panel_charts`), renders them (`chart_svg`) and
returns `view.Chart` records with a title and a caption that says how to read the chart. A
chart appears only when it has something to show: the skew and placement charts for an Easy
Tier pool with two or more tiers (`tiering_chart_views`), the closed-system chart for a closed
system, the growth chart with growth factors, the sweep chart with a tier sweep.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from markupsafe import Markup

from diskmodel.prediction import (
    CurveFall,
    Prediction,
    ScenarioPrediction,
    SizingCandidate,
    SizingResult,
    TransactionPoint,
)
from diskmodel.report import (
    bar_charts,
    chart_worker,
    charts,
    component_tables,
    copy_services_charts,
    display,
    panel_charts,
    result_tables,
    spread,
    tiering_chart_views,
)
from diskmodel.report.chart_svg import handing_ahead, render
from diskmodel.report.view import Chart
from diskmodel.vocabulary import STATION_KINDS

GROUP_ABOVE = 6
"""A kind with more components than this shows as 'busiest' and 'average' bars (all of them
stay in the components table), so that the chart stays readable with 48 ranks."""

GROUP_LABEL = {
    "host adapter ports": "host ports",
    "host adapter cards": "host adapter cards",
    "replication links": "replication links",
    "processor servers": "servers",
    "device adapter pairs": "DA pairs",
    "ranks (per drive)": "ranks",
}
"""A component group's name on the utilisation chart (`component_tables.component_groups`)."""

KIND_LABEL = {kind.key: kind.label for kind in STATION_KINDS}


def charts_for(prediction: ScenarioPrediction) -> list[Chart]:
    """Every chart of the report, in reading order."""
    configs = prediction.configurations
    return [
        _response_chart(configs),
        *_configuration_charts(configs),
        *_analysis_charts(prediction),
    ]


def _analysis_charts(prediction: ScenarioPrediction) -> list[Chart]:
    """The tier sweep's and the sizing search's charts, in reading order."""
    out = []
    if prediction.tier_sweep:
        out.append(_sweep_chart(prediction))
    if prediction.sizing is not None:
        out.append(_sizing_chart(prediction.sizing))
    return out


def _configuration_charts(configs: Sequence[Prediction]) -> list[Chart]:
    """The charts drawn from each configuration's own prediction but its bands (the response
    chart reads the baseline's band; the sweep and sizing charts more than the
    configurations), in reading order."""
    out = []
    growth = _growth_chart(configs)
    if growth is not None:
        out.append(growth)
    closed = _application_chart(configs) or _closed_chart(configs)
    if closed is not None:
        out.append(closed)
    out += [_breakdown_chart(configs), _utilization_chart(configs)]
    for i, p in enumerate(configs):
        out.extend(tiering_chart_views.tiering_charts(i, p))
    out.extend(copy_services_charts.copy_services_charts(configs[0]))
    return out


def hand_ahead(prediction: ScenarioPrediction, *, configurations: bool = True) -> None:
    """Hand every chart of `prediction`'s report to the charts' worker, to be drawn while the
    caller goes on (`chart_svg.handing_ahead`); with `configurations=False`, only those that
    read more than each configuration's prediction without its bands (the others were handed
    by `hand_configurations_ahead`). Without a worker it does nothing: the specifications
    would be made twice for nothing."""
    if chart_worker.running():
        with handing_ahead():
            if configurations:
                charts_for(prediction)
                return
            _response_chart(prediction.configurations)
            _analysis_charts(prediction)


def hand_configurations_ahead(configs: Sequence[Prediction]) -> None:
    """Hand the charts drawn from the configurations' predictions alone (`configs`: the
    baseline first, its bands not yet known) to the charts' worker, as `hand_ahead` does: the
    worker draws them while the bands are worked out, and the report's charts are the same
    (a chart is asked for by its whole specification)."""
    if chart_worker.running():
        with handing_ahead():
            _configuration_charts(configs)


# --------------------------------------------------------------------------- response curve


def _response_chart(configs: Sequence[Prediction]) -> Chart:
    """Open configurations plot their load curve; a closed one the (throughput, response)
    pairs its population sweep traces. The planned point (planned_iops, response_time_ms)
    lies on each line: the model computes both from one operating-point function."""
    series = [_response_series(p) for p in configs]
    markers = [
        charts.Marker(
            p.name,
            p.planned_iops,
            p.response_time_ms,
            f"{display.milliseconds(p.response_time_ms)} ms",
        )
        for p in configs
        if p.response_time_ms is not None and not p.saturated
    ]
    planned = {p.planned_iops for p in configs}
    planned_iops = (
        planned.pop() if len(planned) == 1 and all(p.closed is None for p in configs) else None
    )
    targets = {p.inputs.service_level.response_time_ms for p in configs}
    target_ms = targets.pop() if len(targets) == 1 else None
    shade = configs[0].band
    band = (
        charts.Band(
            tuple(b.iops for b in shade.curve),
            tuple(math.inf if b.optimistic_ms is None else b.optimistic_ms for b in shade.curve),
            tuple(math.inf if b.pessimistic_ms is None else b.pessimistic_ms for b in shade.curve),
        )
        if shade is not None and shade.curve
        else None
    )
    saturated_at = [(p.name, p.planned_iops) for p in configs if p.closed is None and p.saturated]
    falls = [(p, f) for p in configs if p.closed is None for f in p.curve_falls]
    svg = render(
        "chart-response",
        charts.response_time_chart(
            series,
            markers,
            planned_iops,
            target_ms=target_ms,
            band=band,
            saturated_at=saturated_at,
            spans=[(f.from_iops, f.to_iops, FALL_LABEL) for _, f in falls],
        ),
    )
    parts = ["Average response time of all host I/O as the load grows."]
    if band is not None:
        parts.append(
            f"The shaded band around {configs[0].name} is its range over the inputs given as "
            + (
                "ranges: the fastest and the slowest over a sample of the read and sequential "
                "fractions, the other ranges at their optimistic and pessimistic ends (an "
                "inner estimate; the JSON's band.method says how)."
                if shade is not None and shade.sampled
                else "ranges, from every range at its optimistic end to every range at its "
                "pessimistic end."
            )
        )
    if planned_iops is not None:
        parts.append(
            "The dashed vertical line is the planned load; each circle is a configuration's "
            "response time there."
        )
    else:
        parts.append("Each circle is a configuration's operating point.")
    if target_ms is not None:
        parts.append(
            f"The dotted horizontal line is the response-time target of the service level "
            f"({display.number(target_ms)} ms)."
        )
    if saturated_at:
        parts.append(
            "A cross labelled 'saturated' on the planned load marks a configuration that cannot "
            "carry it: "
            + "; ".join(
                f"{name} (its maximum {display.rate_3sf(p.max_iops)} IOPS)"
                for (name, _), p in zip(
                    saturated_at,
                    [p for p in configs if p.closed is None and p.saturated],
                    strict=True,
                )
            )
            + "."
        )
    for p, f in falls:
        parts.append(fall_sentence(p.name, f))
    if any(p.closed is not None for p in configs):
        parts.append(
            "A closed system's line is traced by its population (queue depth or users), each "
            "population solved on its own."
        )
    saturation = [
        f"{p.name} at {display.rate_3sf(p.max_iops)} IOPS" for p in configs if p.closed is None
    ]
    if saturation:
        parts.append(
            "A line that ends in a triangle rises past the top of the chart towards its "
            f"saturation: {'; '.join(saturation)}."
        )
    return Chart("chart-response", "Response time against I/O rate", " ".join(parts), Markup(svg))


FALL_LABEL = "placement change"
"""The label of a shaded stretch of the response curve where the response time falls."""


def fall_sentence(name: str, f: CurveFall) -> str:
    """Why the response time of `name` falls from f.from_iops to f.to_iops (a sentence)."""
    span = (
        f"From {display.rate(f.from_iops)} to {display.rate(f.to_iops)} IOPS the response time "
        f"of {name} falls from {display.milliseconds(f.from_response_time_ms)} to "
        f"{display.milliseconds(f.to_response_time_ms)} ms as the load rises"
    )
    if not f.placement:
        return f"{span}, with no placement change to explain it (please report it)."
    return (
        f"{span} (shaded, '{FALL_LABEL}'): Easy Tier places the data for each load, and here "
        "it keeps a tier at its utilisation target by moving data to a slower one, each load's "
        f"response time being that of its own placement ({f.detail})."
    )


def _response_series(p: Prediction) -> charts.Series:
    if p.closed is not None:
        return charts.Series(
            p.name,
            tuple(pt.iops for pt in p.closed.curve),
            tuple(pt.response_time_ms for pt in p.closed.curve),
        )
    return charts.Series(
        p.name,
        tuple(pt.iops for pt in p.curve),
        tuple(
            pt.response_time_ms
            if pt.response_time_ms is not None and not pt.saturated
            else math.inf
            for pt in p.curve
        ),
    )


# --------------------------------------------------------------------------- growth


def binding_kind(p: Prediction) -> str:
    """The component kind whose utilisation the growth chart shows: that of the utilisation
    limit a rising load reaches first, else the bottleneck's kind."""
    kinds = {c.name: c.kind for c in p.components}
    reached = [
        lim
        for lim in p.service_level.limits
        if lim.kind == "utilization" and lim.max_iops is not None and lim.component in kinds
    ]
    first = min(reached, key=lambda lim: lim.max_iops or 0.0, default=None)
    return kinds[first.component or ""] if first is not None else p.bottleneck_kind


def _growth_chart(configs: Sequence[Prediction]) -> Chart | None:
    grown = [p for p in configs if p.growth]
    if not grown:
        return None
    kinds = [binding_kind(p) for p in grown]
    lines = [
        panel_charts.GrowthLine(
            p.name,
            tuple(g.factor for g in p.growth),
            tuple(
                g.response_time_ms
                if g.response_time_ms is not None and not g.saturated
                else math.inf
                for g in p.growth
            ),
            tuple(g.utilization.get(kind, g.busiest_utilization) for g in p.growth),
            tuple(g.meets_service_level for g in p.growth),
        )
        for p, kind in zip(grown, kinds, strict=True)
    ]
    ceilings: dict[float, list[str]] = {}
    for p, kind in zip(grown, kinds, strict=True):
        ceiling = p.inputs.service_level.utilization.get(kind)
        if ceiling is not None and KIND_LABEL.get(kind, kind) not in ceilings.get(ceiling, []):
            ceilings.setdefault(ceiling, []).append(KIND_LABEL.get(kind, kind))
    targets = {p.inputs.service_level.response_time_ms for p in grown}
    target_ms = targets.pop() if len(targets) == 1 else None
    closed = any(p.closed is not None for p in grown)
    shown = sorted({KIND_LABEL.get(k, k) for k in kinds})
    svg = render(
        "chart-growth",
        panel_charts.growth_chart(
            lines,
            target_ms,
            [
                (f"ceiling {display.percent(c, 0)} ({', '.join(names)})", c)
                for c, names in sorted(ceilings.items())
            ],
            x_label="population factor (× the given population)"
            if closed
            else "load factor (× the planned load)",
            utilization_label=f"busiest {' / '.join(shown)} utilisation",
        ),
    )
    which = "; ".join(
        f"{p.name}: its busiest {KIND_LABEL.get(k, k)}" for p, k in zip(grown, kinds, strict=True)
    )
    return Chart(
        "chart-growth",
        "Response time and utilisation as the load grows",
        "Each configuration at its planned load times each growth factor"
        + (" (a closed system: its population times the factor)" if closed else "")
        + ". Left, the response time against the service level's target (dotted line); right, "
        "the utilisation of the component kind that binds first (the utilisation limit a rising "
        f"load reaches first, else the bottleneck's kind: {which}) against its ceiling (dashed "
        "line). A ring marks a factor at which the service level is not met, for whatever "
        "limit; a cross in the band above the response-time lines marks one at which the "
        "configuration is saturated (the load is above its maximum: no response time). The "
        "growth table names what binds at each factor.",
        Markup(svg),
    )


# --------------------------------------------------------------------------- breakdown


def _breakdown_chart(configs: Sequence[Prediction]) -> Chart:
    bars: list[bar_charts.StackedBar] = []
    several = len(configs) > 1
    for p in configs:
        many_workloads = len(p.workloads) > 1
        for w in p.workloads:
            prefix = " · ".join(
                part for part, keep in ((p.name, several), (w.name, many_workloads)) if keep
            )
            bars.append(_bar(prefix or "all I/O", w.breakdown_ms))
            if several:
                continue  # one bar per configuration; the I/O types of a single one
            for io in w.io_types:
                if io.fraction > 0:
                    io_name = io.io_type.replace("_", " ")
                    label = f"{prefix + ' · ' if prefix else ''}{io_name} " + (
                        f"({display.percent(io.fraction, 0)})"
                    )
                    bars.append(_bar(label, io.breakdown_ms))
    svg = render("chart-breakdown", bar_charts.stacked_bar_chart(bars))
    return Chart(
        "chart-breakdown",
        "Response time by component",
        "Where the time of an average I/O goes at the planned load"
        + (
            ", for each configuration."
            if several
            else ", overall and for each I/O type (its share of the I/O in brackets)."
        )
        + " A part missing from a bar is a component that I/O does not visit, or one that is "
        "saturated.",
        Markup(svg),
    )


def _bar(label: str, breakdown_ms: dict[str, float | None]) -> bar_charts.StackedBar:
    parts = tuple(
        (KIND_LABEL.get(kind, kind.replace("_", " ")), value)
        for kind, value in breakdown_ms.items()
        if value is not None and value > 0
    )
    return bar_charts.StackedBar(label, parts)


# --------------------------------------------------------------------------- utilisation


def _utilization_chart(configs: Sequence[Prediction]) -> Chart:
    names = [p.name for p in configs]
    groups: list[bar_charts.BarGroup] = []
    titles: list[str] = []
    by_config = [dict(component_tables.component_groups(p.components)) for p in configs]
    for grouped in by_config:
        titles.extend(t for t in grouped if t not in titles)
    for title in titles:
        members = [grouped.get(title, []) for grouped in by_config]
        label = GROUP_LABEL.get(title, title)
        if all(len({c.utilization for c in m}) <= 1 for m in members):
            # every component of the group equally busy in each configuration: one bar
            counts = {len(m) for m in members if m}
            count = max(counts, default=0)
            groups.append(
                bar_charts.BarGroup(
                    (f"{label} (all {count})" if len(counts) == 1 else f"{label} (all)")
                    if count > 1
                    else (members[0][0].name if members[0] else label),
                    tuple(m[0].utilization if m else None for m in members),
                )
            )
            continue
        if max(len(m) for m in members) > GROUP_ABOVE:
            groups.append(
                bar_charts.BarGroup(
                    f"{label}: busiest",
                    tuple(max((c.utilization for c in m), default=None) for m in members),
                )
            )
            groups.append(
                bar_charts.BarGroup(
                    f"{label}: average",
                    tuple(sum(c.utilization for c in m) / len(m) if m else None for m in members),
                )
            )
            continue
        order: list[str] = []
        for m in members:
            order.extend(c.name for c in m if c.name not in order)
        for name in order:
            groups.append(
                bar_charts.BarGroup(
                    name,
                    tuple(
                        next((c.utilization for c in m if c.name == name), None) for m in members
                    ),
                )
            )
    svg = render("chart-utilization", bar_charts.utilization_chart(groups, names))
    return Chart(
        "chart-utilization",
        "Utilisation of each component",
        "How busy each component is at the planned load. Above 70% (amber line) queueing "
        "delay grows quickly; above 90% (red line) the component is close to saturation. "
        "Components of one group (host ports, host adapter cards, servers, DA pairs, ranks) that "
        "are all equally busy share one bar; groups of more than "
        f"{GROUP_ABOVE} components show their busiest and their average. The components "
        "table lists every one.",
        Markup(svg),
    )


# --------------------------------------------------------------------------- closed systems


def _closed_chart(configs: Sequence[Prediction]) -> Chart | None:
    closed = [(p, p.closed) for p in configs if p.closed is not None]
    if not closed:
        return None
    throughput = [
        charts.Series(
            p.name,
            tuple(float(pt.population) for pt in c.curve),
            tuple(pt.iops for pt in c.curve),
        )
        for p, c in closed
    ]
    response = [
        charts.Series(
            p.name,
            tuple(float(pt.population) for pt in c.curve),
            tuple(pt.response_time_ms for pt in c.curve),
        )
        for p, c in closed
    ]
    kinds = {c.population_kind for _, c in closed}
    label = (
        "users"
        if kinds == {"users"}
        else ("host queue depth (I/Os in flight)" if kinds == {"queue_depth"} else "population")
    )
    populations = {c.population for _, c in closed}
    planned = float(populations.pop()) if len(populations) == 1 else None
    chart = panel_charts.closed_system_chart(throughput, response, planned, label)
    svg = render("chart-closed", chart)
    settles = "; ".join(
        f"{p.name}: {display.rate(c.iops)} IOPS at {display.milliseconds(c.response_time_ms)} ms"
        for p, c in closed
    )
    return Chart(
        "chart-closed",
        f"Throughput and response time against {label.split(' (')[0]}",
        "A closed system: a fixed number of I/Os in flight (or users who think, then issue the "
        "next I/O), each population solved on its own, up to twice the scenario's. Throughput "
        "levels off at the bottleneck's limit while response time keeps growing. The dashed "
        f"line is the scenario's population; there {settles}.",
        Markup(svg),
    )


def _application_chart(configs: Sequence[Prediction]) -> Chart | None:
    apps = [(p, p.application) for p in configs if p.application is not None]
    if not apps:
        return None

    def series(show: Callable[[TransactionPoint], float]) -> list[charts.Series]:
        return [
            charts.Series(
                p.name,
                tuple(float(t.users) for t in a.curve),
                tuple(show(t) for t in a.curve),
            )
            for p, a in apps
        ]

    users = {a.users for _, a in apps}
    name = apps[0][1].name
    svg = render(
        "chart-application",
        panel_charts.closed_system_chart(
            series(lambda t: t.transactions_per_s),
            series(lambda t: t.response_time_ms),
            float(users.pop()) if len(users) == 1 else None,
            "users",
            ("transactions per second", "transaction response time (ms)"),
            "Transactions and their response time",
        ),
    )
    at = "; ".join(
        f"{p.name}: {display.number(a.at.transactions_per_s)} transactions/s at "
        f"{display.milliseconds(a.at.response_time_ms)} ms ({a.limited_by} binds at "
        f"{display.number(min(a.storage_bound_tps, a.cpu_bound_tps or math.inf))}/s)"
        for p, a in apps
    )
    return Chart(
        "chart-application",
        f"Application {name}: transactions and their response time against users",
        "The users, the host CPUs and the storage solved as one closed network at each number "
        "of users. The transaction rate rises with users until the host CPUs or the storage "
        "bind, then levels off while the transaction response time keeps growing. The dashed "
        f"line is the scenario's users; there {at}.",
        Markup(svg),
    )


# --------------------------------------------------------------------------- tier sweep


def _sweep_chart(prediction: ScenarioPrediction) -> Chart:
    ok = [t for t in prediction.tier_sweep if t.error is None]
    base = prediction.baseline
    uneven = {
        float(t.added): f"uneven {spread.counts_text(t.da_pair_spread)}"
        for t in ok
        if spread.uneven_text(t.da_pair_spread)
    }
    svg = render(
        "chart-sweep",
        charts.sweep_chart(
            [float(t.added) for t in ok],
            [
                ("maximum (saturation)", [t.max_iops for t in ok]),
                ("planning maximum (service level)", [t.planning_max_iops for t in ok]),
            ],
            base.planned_iops if base.closed is None else None,
            "ranks added",
            notes=uneven,
        ),
    )
    failed = [t for t in prediction.tier_sweep if t.error is not None]
    return Chart(
        "chart-sweep",
        f"Ranks added to {base.name}",
        "The highest total I/O rate with 0, 1, 2 ... more ranks: to saturation, and to the "
        "service level (every limit met). Where the planning maximum is below the dashed "
        "planned load, the configuration does not meet its service level at that load. "
        + result_tables.SWEEP_PLACEMENT
        + (
            " Such a point is ringed and labelled 'uneven' with the tier's ranks per DA pair ("
            + ", ".join(f"+{x:g}: {note.removeprefix('uneven ')}" for x, note in uneven.items())
            + ")."
            if uneven
            else " No point here is uneven."
        )
        + (
            " Not possible: " + "; ".join(f"+{t.added} ({t.error})" for t in failed) + "."
            if failed
            else ""
        ),
        Markup(svg),
    )


# --------------------------------------------------------------------------- sizing


def _sizing_chart(r: SizingResult) -> Chart:
    def cost(c: SizingCandidate) -> float:
        return c.price if c.price is not None else float(c.drives)

    solved = [c for c in r.candidates if c.error is None and c.response_time_ms is not None]
    points = [(cost(c), c.response_time_ms or 0.0, c.meets) for c in solved]
    front = [(cost(r.candidates[i]), r.candidates[i].response_time_ms or 0.0) for i in r.front]
    marked = [("current", 0)]
    if r.cheapest is not None and r.cheapest != 0:
        marked.append(("cheapest", r.cheapest))
    rings = [
        (name, cost(r.candidates[i]), r.candidates[i].response_time_ms or 0.0)
        for name, i in marked
        if r.candidates[i].response_time_ms is not None
    ]
    label = "price" if r.objective == "price" else "drives"
    svg = render("chart-sizing", charts.sizing_chart(points, front, rings, label))
    impossible = sum(1 for c in r.candidates if c.error is not None)
    return Chart(
        "chart-sizing",
        f"Sizing: {len(r.candidates)} configurations, cost against response time",
        "Each configuration analyses.size offered, solved at the planned load (its response "
        "time now) and at every growth period: filled where the service level holds through "
        f"{r.periods[-1]}, a cross where it breaks. The line joins the Pareto front (no other "
        "configuration is cheaper and at least as fast). "
        + (f"{impossible} configurations are not possible (see the table). " if impossible else "")
        + (
            "Prices are the scenario's."
            if r.objective == "price"
            else "Without prices, cost is the number of drives."
        ),
        Markup(svg),
    )
