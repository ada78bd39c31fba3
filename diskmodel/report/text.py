"""A readable terminal summary of a `ScenarioPrediction` (what `diskmodel run` prints).

Per configuration: the answer in two lines (planned load and response time; maximum rate and
what limits it), the busiest component of each kind, the workloads with their response time
broken down by component, and for a closed system its operating point. Then the comparison
of alternatives and the growth sweep. Reads the prediction only; numbers shown by the shared
display rules (`diskmodel.report.display`).
"""

from __future__ import annotations

from diskmodel.prediction import ComponentResult, Prediction, ScenarioPrediction
from diskmodel.report import display
from diskmodel.report.table import table

_KIND_TITLES = {
    "host_adapter": "host adapter ports",
    "processor": "processor servers",
    "device_adapter": "device adapter pairs",
    "rank": "ranks (per drive)",
}


SMALLEST_MS = 0.001
"""Times below a microsecond are shown as "<0.001": never as 0 (they are not 0)."""


def _ms(value: float | None) -> str:
    if value is None:
        return display.SATURATED_TEXT
    if 0 < value < SMALLEST_MS:
        return f"<{SMALLEST_MS:g}"
    return display.milliseconds(value)


def _headline(p: Prediction) -> list[str]:
    lines = [f"== {p.name} ({p.system})"]
    if p.closed is not None:
        think = display.milliseconds(p.closed.think_time_ms)
        how = (
            f"{p.closed.population:,} users, think time {think} ms"
            if p.closed.think_time_ms > 0
            else f"host queue depth {p.closed.population:,}"
        )
        lines.append(
            f"closed system ({how}): {display.rate(p.closed.iops)} IOPS at "
            f"{display.milliseconds(p.closed.response_time_ms)} ms"
            + ("  [destage path saturated: NVS full]" if p.closed.destage_limited else "")
        )
    else:
        lines.append(
            f"planned load: {display.rate(p.planned_iops)} IOPS, response time "
            f"{_ms(p.response_time_ms)} ms" + ("  [SATURATED]" if p.saturated else "")
        )
    limit = f"maximum: {display.rate_3sf(p.max_iops)} IOPS, limited by {p.bottleneck}"
    if p.destage_limited:
        limit += " (it also absorbs destages: at this rate NVS fills and writes wait)"
    lines.append(limit)
    if p.nvs_full and p.closed is None:
        lines.append("NVS full: destages cannot keep up at the planned load; writes wait")
    return lines


def _busiest(components: tuple[ComponentResult, ...]) -> str:
    rows = []
    for kind, title in _KIND_TITLES.items():
        members = [c for c in components if c.kind == kind]
        if not members:
            continue
        top = max(members, key=lambda c: c.utilization)
        rows.append(
            [
                title,
                str(len(members)),
                display.percent(top.utilization),
                top.name,
                _ms(top.service_time_ms),
                _ms(top.wait_time_ms),
            ]
        )
    return table(
        ["component", "count", "busiest", "which", "service ms", "wait ms"],
        rows,
        title="Components at the planned load (busiest of each kind)",
    )


def _workloads(p: Prediction) -> str:
    rows = []
    for w in p.workloads:
        rows.append(
            [
                w.name,
                w.pool,
                display.rate(w.iops),
                _ms(w.response_time_ms),
                _ms(w.read_response_time_ms),
                _ms(w.write_response_time_ms),
                *(_ms(w.breakdown_ms[k]) for k in _KIND_TITLES),
            ]
        )
    return table(
        ["workload", "pool", "IOPS", "resp ms", "read ms", "write ms", "HA", "proc", "DA", "rank"],
        rows,
        title="Workloads (response time and its breakdown by component, ms)",
    )


def _tiers(p: Prediction) -> str:
    rows = [
        [
            t.pool,
            t.tier,
            str(t.ranks),
            display.capacity_gb(t.used_gb),
            display.capacity_gb(t.capacity_gb),
            display.percent(t.small_io_share),
            display.percent(t.mb_share),
            display.rate(t.backend_iops),
            display.percent(t.utilization),
        ]
        for t in p.tiers
    ]
    return table(
        [
            "pool",
            "tier",
            "ranks",
            "used",
            "capacity",
            "small I/O",
            "MB/s",
            "back-end ops/s",
            "busy",
        ],
        rows,
        title="Tiers",
    )


def render_prediction(p: Prediction) -> str:
    """One configuration's summary."""
    parts = ["\n".join(_headline(p)), _busiest(p.components), _workloads(p), _tiers(p)]
    parts.extend(f"note: {n}" for n in p.notes)
    return "\n\n".join(parts)


def _comparison(sp: ScenarioPrediction) -> str:
    """Configurations side by side. Closed systems compare what they deliver at their queue
    depth (the question C3 asks); open ones compare their maximum rate."""
    base = sp.baseline
    closed = base.closed is not None

    def at_load(p: Prediction) -> float:
        return p.closed.iops if p.closed is not None else p.planned_iops

    reference = at_load(base) if closed else base.max_iops
    rows = []
    for p in sp.configurations:
        value = at_load(p) if closed else p.max_iops
        ratio = f"{value / reference:.2f}x" if reference > 0 else "-"
        rows.append(
            [
                p.name,
                display.rate(at_load(p)),
                _ms(p.closed.response_time_ms if p.closed else p.response_time_ms),
                display.rate_3sf(p.max_iops),
                ratio,
                p.bottleneck,
            ]
        )
    return table(
        [
            "configuration",
            "IOPS",
            "resp ms",
            "max IOPS",
            "IOPS vs baseline" if closed else "max vs baseline",
            "bottleneck",
        ],
        rows,
        title="Comparison",
    )


def _growth(sp: ScenarioPrediction) -> str:
    rows = [
        [
            f"{g.factor:g}x",
            display.rate(g.iops),
            _ms(g.response_time_ms),
            display.percent(g.bottleneck_utilization),
        ]
        for g in sp.growth
    ]
    return table(
        ["growth", "IOPS", "resp ms", "bottleneck busy"],
        rows,
        title=f"Growth (bottleneck: {sp.baseline.bottleneck})",
    )


def _tier_sweep(sp: ScenarioPrediction) -> str:
    rows = [
        [f"+{t.added}", "-", "-", "-", "-", t.error]
        if t.error is not None
        else [
            f"+{t.added}",
            display.rate_3sf(t.max_iops),
            _ms(t.response_time_ms),
            display.percent(t.tier_small_io_share),
            t.bottleneck,
            "",
        ]
        for t in sp.tier_sweep
    ]
    return table(
        ["ranks added", "max IOPS", "resp ms", "tier's small I/O", "bottleneck", "note"],
        rows,
        title="Tier sweep (the tier's share of the pool's small I/O at the planned load)",
    )


def render(prediction: ScenarioPrediction) -> str:
    """The whole terminal summary of a scenario's prediction."""
    parts = [f"Scenario: {prediction.scenario}"]
    parts.extend(render_prediction(p) for p in prediction.configurations)
    if prediction.alternatives:
        parts.append(_comparison(prediction))
    if prediction.growth:
        parts.append(_growth(prediction))
    if prediction.tier_sweep:
        parts.append(_tier_sweep(prediction))
    return "\n\n".join(parts) + "\n"
