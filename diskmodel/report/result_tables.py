"""Report tables of the predicted results: one column per configuration, side by side.

Reads `Prediction`s only and formats with `diskmodel.report.display`; a utilisation cell
carries a warning level (above 70%) or a critical one (above 90%) for the template to colour.
Numbers are the prediction's own; the only arithmetic here is presentation (a headroom as the
ratio of two carried rates, a margin as the difference between a target and a carried value).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from diskmodel.prediction import (
    CatalogBandResult,
    ComponentResult,
    EstimateEffect,
    LimitResult,
    Prediction,
    ScenarioPrediction,
)
from diskmodel.report import display, spread
from diskmodel.report.charts import CRITICAL_UTILIZATION, WARN_UTILIZATION
from diskmodel.report.view import Cell, Row, Table

DASH = Cell("–", "num")


def ms_cell(value: float | None) -> Cell:
    """A response time, or "saturated" where there is none."""
    return Cell(display.milliseconds(value) if value is not None else display.SATURATED_TEXT, "num")


def utilization_cell(value: float | None) -> Cell:
    if value is None:
        return DASH
    if value >= CRITICAL_UTILIZATION:
        return Cell(display.percent(value), "num", "critical")
    if value >= WARN_UTILIZATION:
        return Cell(display.percent(value), "num", "warning")
    return Cell(display.percent(value), "num")


def headroom_text(maximum: float, planned: float) -> str:
    """How much more load than planned fits under `maximum` ("64%"), or "none"."""
    if planned <= 0 or maximum <= planned:
        return "none"
    if not math.isfinite(maximum):
        return "unlimited"
    return display.percent(maximum / planned - 1.0, 0)


def bottleneck_text(p: Prediction) -> str:
    """The bottleneck as a planner reads it: "device adapter pair 1", "host port 3"."""
    if p.bottleneck_kind == "device_adapter":
        return p.bottleneck.replace("DA pair", "device adapter pair")
    return p.bottleneck


def _estimate_range(effect: EstimateEffect) -> str:
    """ "10-40 us", "1,000-4,000 MB/s", "1-64": an estimate's range in its own unit."""
    key = effect.key.rsplit(".", 1)[-1]
    units = (("_us_per_kib", " us per KiB"), ("_us", " us"), ("_ms", " ms"), ("_mb_s", " MB/s"))
    unit = next((u for suffix, u in units if key.endswith(suffix)), "")
    if key.endswith("_fraction"):
        return f"{display.percent(effect.low)}-{display.percent(effect.high)}"
    return f"{display.number(effect.low)}-{display.number(effect.high)}{unit}"


def catalog_band_sentence(band: CatalogBandResult) -> str | None:
    """ "Over the ranges of the catalog's unpublished figures the maximum lies between ...;
    most of the spread comes from ... (estimated, 10-40 us) ..." (None: no estimate moves
    the answer beyond the band's threshold)."""
    if not band.contributors:
        return None
    low, high = band.max_iops
    top, *rest = band.contributors
    sentence = (
        f"Over the ranges of the catalog's unpublished figures the maximum lies between "
        f"{display.rate_3sf(low)} and {display.rate_3sf(high)} IOPS; most of the spread comes "
        f"from the {top.label} (estimated, {_estimate_range(top)})"
    )
    if rest:
        sentence += ", then the " + ", the ".join(
            f"{c.label} ({_estimate_range(c)})" for c in rest[:2]
        )
    sentence += "."
    if band.bottleneck_estimated:
        sentence += " The bottleneck is set by an estimate."
    return sentence


def population_count(p: Prediction) -> tuple[int, str]:
    """A closed configuration's load as a planner states it: (count, "users" or "queue
    depth"). For an application it is its users, not the I/O streams the storage is solved
    with (a user with several I/Os in flight is several streams: `closed.population`)."""
    assert p.closed is not None
    if p.application is not None:
        return p.application.users, "users"
    return p.closed.population, p.closed.population_kind.replace("_", " ")


def margin_text(limit: LimitResult) -> str:
    """ "met, 1.2 ms to spare", "not met, 4.1 points over", "saturated": a limit at the
    planned load."""
    if limit.value is None:
        return "not met: saturated"
    gap = limit.target - limit.value
    if limit.kind == "utilization":
        amount = f"{display.number(round(abs(gap) * 100, 1))} points"
    else:
        amount = f"{display.milliseconds(abs(gap))} ms"
    return f"met, {amount} to spare" if limit.met else f"not met, {amount} over"


def limit_value_text(limit: LimitResult) -> str:
    if limit.value is None:
        return display.SATURATED_TEXT
    if limit.kind == "utilization":
        return display.percent(limit.value)
    return f"{display.milliseconds(limit.value)} ms"


def results_table(configs: Sequence[Prediction]) -> Table:
    """The headline results of each configuration at its planned load."""

    def row(header: str, cells: Sequence[Cell]) -> Row:
        return Row(header, tuple(cells))

    rows = [
        row("Planned load (IOPS)", [Cell(display.rate(p.planned_iops), "num") for p in configs]),
        row("Response time (ms)", [ms_cell(p.response_time_ms) for p in configs]),
        row(
            "Maximum to saturation (IOPS)",
            [Cell(display.rate_3sf(p.max_iops), "num") for p in configs],
        ),
        row(
            "Headroom to saturation",
            [_headroom_cell(p.max_iops, p) for p in configs],
        ),
        row("Bottleneck at saturation", [Cell(bottleneck_text(p)) for p in configs]),
        row(
            "Planning maximum (IOPS)",
            [Cell(display.rate_3sf(p.service_level.max_iops), "num") for p in configs],
        ),
        row(
            "Headroom to the planning maximum",
            [_headroom_cell(p.service_level.max_iops, p) for p in configs],
        ),
        row("Binding limit", [Cell(p.service_level.binding) for p in configs]),
        row(
            "IOPS at the response-time target",
            [
                Cell(
                    display.rate_3sf(p.service_level.iops_at_target)
                    if p.service_level.iops_at_target is not None
                    else "not reached",
                    "num",
                )
                for p in configs
            ],
        ),
        row(
            "Service level at the planned load",
            [
                Cell(
                    "met" if p.service_level.met else "not met",
                    level="" if p.service_level.met else "critical",
                )
                for p in configs
            ],
        ),
        row(
            "NVS full at the planned load",
            [
                Cell("yes" if p.nvs_full else "no", level="critical" if p.nvs_full else "")
                for p in configs
            ],
        ),
        row(
            "Bottleneck carries destages",
            [Cell("yes" if p.destage_limited else "no") for p in configs],
        ),
    ]
    if any(p.closed is not None for p in configs):
        rows.append(
            row(
                "Closed system: population",
                [
                    Cell(
                        "{:,} ({})".format(*population_count(p)) if p.closed else "–",
                        "num",
                    )
                    for p in configs
                ],
            )
        )
    if any(p.band is not None for p in configs):
        rows.append(
            row("Response time over the input ranges (ms)", [_band_cell(p) for p in configs])
        )
        rows.append(
            row(
                "Maximum over the input ranges (IOPS)",
                [
                    Cell(
                        f"{display.rate_3sf(p.band.max_iops[0])} – "
                        f"{display.rate_3sf(p.band.max_iops[1])}",
                        "num",
                    )
                    if p.band is not None
                    else DASH
                    for p in configs
                ],
            )
        )
    for name in _workload_names(configs):
        for label, attribute, io in (
            ("response time (ms)", "response_time_ms", ""),
            ("read response (ms)", "read_response_time_ms", "reads"),
            ("write response (ms)", "write_response_time_ms", "writes"),
        ):
            cells = []
            for p in configs:
                w = next((w for w in p.workloads if w.name == name), None)
                present = w is not None and (not io or getattr(w, io))
                cells.append(ms_cell(getattr(w, attribute)) if present else DASH)
            rows.append(row(f"{name}: {label}", cells))
        rates, hits = [], []
        for p in configs:
            w = next((w for w in p.workloads if w.name == name), None)
            rates.append(Cell(display.rate(w.iops), "num") if w else DASH)
            hits.append(Cell(display.percent(w.read_hit_ratio), "num") if w else DASH)
        rows.append(row(f"{name}: I/O rate (IOPS)", rates))
        rows.append(row(f"{name}: read hit ratio used", hits))
    return Table(
        key="results",
        caption="Results at the planned load",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="Response times are averages over the I/O named, from the host adapter to the "
        "drives and back. The maximum to saturation is the total I/O rate at which the first "
        "component reaches 100% busy; the planning maximum is the highest rate at which every "
        "limit of the service level is met (the binding limit is the first one reached). "
        "Headroom is how much more load than planned fits under each.",
    )


def _band_cell(p: Prediction) -> Cell:
    """Pessimistic – optimistic response time over the input ranges."""
    if p.band is None:
        return DASH
    worst, best = p.band.response_time_ms
    shown = [
        display.milliseconds(v) if v is not None else display.SATURATED_TEXT for v in (worst, best)
    ]
    return Cell(" – ".join(shown), "num")


def _headroom_cell(maximum: float, p: Prediction) -> Cell:
    if p.closed is not None:
        return Cell("– (closed)", "num")
    text = headroom_text(maximum, p.planned_iops)
    return Cell(text, "num", "critical" if text == "none" else "")


def _workload_names(configs: Sequence[Prediction]) -> list[str]:
    names: list[str] = []
    for p in configs:
        names.extend(w.name for w in p.workloads if w.name not in names)
    return names


def service_level_table(configs: Sequence[Prediction]) -> Table:
    """Each limit of the service level: its value at the planned load, whether it is met
    there and by how much, and the highest rate at which it is still met. With several
    configurations, each configuration's limits under its name (the table stays five columns
    wide)."""
    several = len(configs) > 1
    rows = []
    for p in configs:
        if several:
            rows.append(Row(p.name, (), group=True))
        for lim in p.service_level.limits:
            rows.append(
                Row(
                    lim.label,
                    (
                        Cell(limit_value_text(lim), "num"),
                        Cell(margin_text(lim), level="" if lim.met else "critical"),
                        Cell(
                            display.rate_3sf(lim.max_iops)
                            if lim.max_iops is not None
                            else "saturation",
                            "num",
                        ),
                        Cell(lim.component or ""),
                    ),
                )
            )
    return Table(
        key="service-level",
        caption="Service level",
        columns=(
            "limit",
            "at the planned load",
            "met?",
            "met up to (IOPS)",
            "first to reach it",
        ),
        rows=tuple(rows),
        note="A utilisation limit applies to every component of its kind; the last column "
        "names the component that reaches it first. The planning maximum is the lowest "
        "'met up to'.",
    )


def components_tables(configs: Sequence[Prediction]) -> list[Table]:
    """Every component of each configuration at its planned load: utilisation, service and
    response time per visit; consecutive components of one kind with the same figures share a
    row. One table per configuration (keys `components`, `components-1`, ...)."""
    several = len(configs) > 1
    return [
        _components_table(
            p,
            "components" if i == 0 else f"components-{i}",
            f"Components at the planned load: {p.name}"
            if several
            else "Components at the planned load",
        )
        for i, p in enumerate(configs)
    ]


def _components_table(p: Prediction, key: str, caption: str) -> Table:
    rows: list[Row] = []
    run: list[str] = []
    run_kind = ""
    run_cells: tuple[Cell, ...] = ()

    def flush() -> None:
        if run:
            rows.append(Row(_group_name(run), run_cells))

    for c in p.components:
        cells = _component_cells(c)
        if run and c.kind == run_kind and cells == run_cells:
            run.append(c.name)
            continue
        flush()
        run, run_kind, run_cells = [c.name], c.kind, cells
    flush()
    return Table(
        key=key,
        caption=caption,
        columns=("component", "utilisation", "service (ms)", "wait (ms)", "response (ms)"),
        rows=tuple(rows),
        note="Utilisation is the busy fraction of one server of the station (for a rank, of one "
        "of its drives). Service, wait and response are per visit of one operation; response = "
        "service + wait. Components of one kind with the same figures share a row (their count "
        "in brackets). Amber: above 70% busy; red: above 90%.",
        detail=True,
    )


def _component_cells(c: ComponentResult) -> tuple[Cell, ...]:
    saturated = c.saturated or c.response_time_ms is None
    return (
        utilization_cell(c.utilization),
        Cell(display.milliseconds(c.service_time_ms), "num"),
        ms_cell(None if saturated else c.wait_time_ms),
        ms_cell(None if saturated else c.response_time_ms),
    )


def _group_name(names: Sequence[str]) -> str:
    """ "host port 0" alone; "host ports 0–15 (16 alike)" for a numbered run; else the first
    and last names with the count."""
    if len(names) == 1:
        return names[0]
    stems = {n.rsplit(" ", 1)[0] for n in names}
    tails = [n.rsplit(" ", 1)[-1] for n in names]
    if len(stems) == 1 and all(t.isdigit() for t in tails):
        return f"{stems.pop()}s {tails[0]}–{tails[-1]} ({len(names)} alike)"
    return f"{names[0]} … {names[-1]} ({len(names)} alike)"


def shows_allocation(p: Prediction) -> bool:
    """A workload's data over its pool's tiers is worth a table where a pool has several tiers
    with more than one workload in it, or a workload is pinned in part."""
    tiers: dict[str, int] = {}
    for w in p.workloads:
        tiers[w.pool] = max(tiers.get(w.pool, 0), len(w.allocation))
    sharing = {pool: sum(1 for w in p.workloads if w.pool == pool) for pool in tiers}
    pinned = any(w.pin for w in p.inputs.workloads)
    return pinned or any(tiers[pool] > 1 and sharing[pool] > 1 for pool in tiers)


def allocation_table(configs: Sequence[Prediction]) -> Table:
    """Each workload's data and back-end I/O on each tier of its pool, at the planned load."""
    several = len(configs) > 1
    rows = []
    for p in configs:
        for w in p.workloads:
            for a in w.allocation:
                label = f"{w.name} · {a.tier}"
                rows.append(
                    Row(
                        f"{p.name}: {label}" if several else label,
                        (
                            Cell(display.capacity_gb(a.capacity_gb), "num"),
                            Cell(display.percent(a.small_io_share), "num"),
                            Cell(display.percent(a.mb_share), "num"),
                        ),
                    )
                )
    return Table(
        key="allocation",
        caption="Each workload's data on its pool's tiers",
        columns=(
            "configuration: workload · tier" if several else "workload · tier",
            "data",
            "share of its small I/O",
            "share of its MB/s",
        ),
        rows=tuple(rows),
        note="As placed for the planned load: pinned data (pin, pin_tier) first, the rest by "
        "the pool's Easy Tier setting.",
    )


def tiers_table(configs: Sequence[Prediction]) -> Table:
    """Each pool's tiers: ranks, capacity, data placed there, the share of small I/O and the
    drives' load; one row per pool and tier, under each configuration's name."""
    several = len([p for p in configs if p.tiers]) > 1
    rows = []
    for p in configs:
        if several and p.tiers:
            rows.append(Row(p.name, (), group=True))
        for t in p.tiers:
            over = t.used_gb > t.capacity_gb * (1 + 1e-9)
            rows.append(
                Row(
                    f"{t.pool} · {t.tier}",
                    (
                        Cell(str(t.ranks), "num"),
                        Cell(
                            f"{display.capacity_gb(t.used_gb)} / "
                            f"{display.capacity_gb(t.capacity_gb)}",
                            "num",
                            "critical" if over else "",
                        ),
                        Cell(display.percent(t.small_io_share), "num"),
                        Cell(display.percent(t.mb_share), "num"),
                        Cell(display.rate(t.backend_iops), "num"),
                        utilization_cell(t.utilization),
                    ),
                )
            )
    return Table(
        key="tiers",
        caption="Tiers and their load",
        columns=(
            "pool · tier",
            "ranks",
            "data / capacity",
            "share of small I/O",
            "share of MB/s",
            "back-end IOPS",
            "drives busy",
        ),
        rows=tuple(rows),
        note="Shares are of the pool's back-end I/O at the planned load (Easy Tier's placement "
        "for that load). Back-end IOPS are drive operations after cache hits, write folding "
        "and the RAID write penalty; drives busy is the mean utilisation of the tier's drives.",
    )


def growth_table(configs: Sequence[Prediction]) -> Table:
    """Each configuration at its planned load scaled by each growth factor."""
    grown = [p for p in configs if p.growth]
    several = len(grown) > 1
    rows = []
    for p in grown:
        if several:
            rows.append(Row(p.name, (), group=True))
        for g in p.growth:
            level = (
                Cell("met")
                if g.meets_service_level
                else Cell(
                    f"not met ({display.broken_text(g.broken)})" if g.broken else "not met",
                    level="critical",
                )
            )
            rows.append(
                Row(
                    g.label or "× " + display.number(g.factor),
                    (
                        Cell(display.rate(g.iops), "num"),
                        ms_cell(g.response_time_ms if not g.saturated else None),
                        Cell(g.busiest),
                        utilization_cell(g.busiest_utilization),
                        level,
                    ),
                )
            )
    return Table(
        key="growth",
        caption="Growth",
        columns=(
            "load factor",
            "I/O rate (IOPS)",
            "response time (ms)",
            "busiest component",
            "its utilisation",
            "service level",
        ),
        rows=tuple(rows),
        note="'saturated': the load is above the configuration's maximum, so there is no "
        "steady response time. The service level column names what binds at that load, "
        "first what binds first: the saturated station, then every limit broken, in the order "
        "a rising load breaks them (the first is the one the planning maximum names). "
        + " ".join(f"{p.name}: {_first_break(p)}." for p in grown),
    )


def _first_break(p: Prediction) -> str:
    broken = next((g for g in p.growth if not g.meets_service_level), None)
    if broken is None:
        return "the service level holds at every step"
    name = broken.label or f"× {display.number(broken.factor)}"
    return f"first broken at {name} ({display.broken_text(broken.broken) or 'saturated'})"


CARD_PREFIX = "host adapter card"
"""How the model names a host adapter card's station (a host_adapter station, beside the
ports): the ports and their cards are counted apart."""

GROUP_TITLES = (
    ("host_adapter", False, "host adapter ports"),
    ("host_adapter", True, "host adapter cards"),
    ("processor", False, "processor servers"),
    ("device_adapter", False, "device adapter pairs"),
    ("rank", False, "ranks (per drive)"),
)
"""The component groups the summaries count, in the order of an I/O's path."""


def component_groups(
    components: Sequence[ComponentResult],
) -> list[tuple[str, list[ComponentResult]]]:
    """(title, members) of each group of components present: the host ports and the host
    adapter cards apart (both are `host_adapter` stations; 16 ports on 4 cards are 16 ports
    and 4 cards, not 20 ports), then the servers, the DA pairs and the ranks."""
    out = []
    for kind, cards, title in GROUP_TITLES:
        members = [
            c for c in components if c.kind == kind and c.name.startswith(CARD_PREFIX) == cards
        ]
        if members:
            out.append((title, members))
    return out


def spread_note(per_pair: Sequence[int]) -> str:
    """ "uneven: DA pairs 2/1" where a tier's ranks sit unevenly on the DA pairs (the pair
    with more carries more of the tier's I/O; `spread.uneven_text`), else empty."""
    text = spread.uneven_text(per_pair)
    return f"uneven: {text}" if text else ""


def tier_sweep_table(prediction: ScenarioPrediction) -> Table:
    """The baseline with 0, 1, 2 ... more ranks of one drive type."""
    rows = tuple(
        Row(
            f"+{t.added}",
            (DASH,) * 6 + (Cell(t.error, "text", "critical"),)
            if t.error is not None
            else (
                Cell(display.rate_3sf(t.max_iops), "num"),
                Cell(display.rate_3sf(t.planning_max_iops), "num"),
                ms_cell(t.response_time_ms if not t.saturated else None),
                Cell(display.percent(t.tier_small_io_share), "num"),
                Cell(t.bottleneck),
                Cell(
                    "saturated at the planned load" if t.saturated else "",
                    level="critical" if t.saturated else "",
                ),
                Cell(spread_note(t.da_pair_spread)),
            ),
        )
        for t in prediction.tier_sweep
    )
    return Table(
        key="tier-sweep",
        caption=f"Ranks added to a pool of {prediction.baseline.name}",
        columns=(
            "ranks added",
            "maximum (IOPS)",
            "planning maximum (IOPS)",
            "response time at the planned load (ms)",
            "tier's share of small I/O",
            "bottleneck at the maximum",
            "at the planned load",
            "note",
        ),
        rows=rows,
        note=f"{SWEEP_PLACEMENT} Such a point is marked 'uneven' in the note column.",
    )


SWEEP_PLACEMENT = (
    "Every point places its ranks with system.rank_placement: balanced: each drive type spread "
    "over the DA pairs and the servers as evenly as its count allows. A count that cannot be "
    "even (an odd count over two DA pairs) leaves one pair and one server holding a rank more "
    "of the tier, which carries more of its hot I/O and can lower the maximum below that of "
    "fewer ranks."
)
"""What the tier sweep's table, chart and text say about where its ranks go."""
