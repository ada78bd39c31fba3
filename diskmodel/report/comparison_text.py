"""The configurations side by side in the terminal summary: the alternatives compared with
the baseline (what an application's users get, or the rates), and the tier sweep.
"""

from __future__ import annotations

import math

from diskmodel.prediction import Prediction, ScenarioPrediction
from diskmodel.report import display
from diskmodel.report.phrases import ms_text, spread_note
from diskmodel.report.table import TextTable, table


def application_comparison(sp: ScenarioPrediction) -> TextTable:
    """An application's configurations side by side: what the users get."""
    reference = sp.baseline.application
    assert reference is not None
    rows = []
    for p in sp.configurations:
        app = p.application
        if app is None:
            continue
        rows.append(
            [
                p.name,
                display.number(app.at.transactions_per_s),
                ms_text(app.at.response_time_ms),
                display.percent(app.at.cpu_utilization),
                display.rate(app.at.storage_iops),
                ms_text(app.at.storage_response_time_ms),
                _ratio(app.at.transactions_per_s, reference.at.transactions_per_s),
                app.limited_by,
            ]
        )
    return table(
        [
            "configuration",
            "trans/s",
            "trans ms",
            "CPU busy",
            "storage IOPS",
            "I/O resp ms",
            "trans/s vs baseline",
            "bound",
        ],
        rows,
        title=f"Comparison at {reference.users:,} users",
    )


def comparison(sp: ScenarioPrediction) -> TextTable:
    """Configurations side by side. Closed systems compare what they deliver at their queue
    depth (the question C3 asks); open ones compare their planning maximum."""
    base = sp.baseline
    closed = base.closed is not None

    def at_load(p: Prediction) -> float:
        return p.closed.iops if p.closed is not None else p.planned_iops

    def compared(p: Prediction) -> float:
        return at_load(p) if closed else p.service_level.max_iops

    reference = compared(base)
    rows = []
    for p in sp.configurations:
        value = compared(p)
        rows.append(
            [
                p.name,
                display.rate(at_load(p)),
                ms_text(p.closed.response_time_ms if p.closed else p.response_time_ms),
                display.rate_3sf(p.service_level.max_iops),
                display.rate_3sf(p.max_iops),
                _ratio(value, reference),
                p.bottleneck,
            ]
        )
    return table(
        [
            "configuration",
            "IOPS",
            "resp ms",
            "planning max",
            "max IOPS",
            "IOPS vs baseline" if closed else "planning max vs baseline",
            "bottleneck",
        ],
        rows,
        title="Comparison",
    )


def _ratio(value: float, reference: float) -> str:
    """ "1.25x", or "-" where the ratio means nothing (a zero or unbounded reference)."""
    if reference <= 0 or not math.isfinite(value / reference):
        return "-"
    return f"{value / reference:.2f}x"


def tier_sweep(sp: ScenarioPrediction) -> TextTable:
    rows = [
        [f"+{t.added}", "-", "-", "-", "-", f"not possible: {t.error}"]
        if t.error is not None
        else [
            f"+{t.added}",
            display.rate_3sf(t.max_iops),
            display.rate_3sf(t.planning_max_iops),
            ms_text(t.response_time_ms if not t.saturated else None),
            display.percent(t.tier_small_io_share),
            t.bottleneck + (f" ({note})" if (note := spread_note(t.da_pair_spread)) else ""),
        ]
        for t in sp.tier_sweep
    ]
    return table(
        ["ranks added", "max IOPS", "planning max", "resp ms", "tier's small I/O", "bottleneck"],
        rows,
        title="Tier sweep (the tier's share of the pool's small I/O at the planned load; ranks "
        "placed balanced)",
    )
