"""The copy services in the terminal summary (`copy_services_parts`): the secondary and the
links, what Metro Mirror adds to each replicated workload's writes and its write response at
each distance of the sweep, Global Mirror's link budget over its intervals, each FlashCopy's
extra back-end work, and the warnings. Reads the Prediction only.
"""

from __future__ import annotations

from diskmodel.prediction import Prediction
from diskmodel.prediction.copy_services import CopyServicesInputs, GlobalMirrorBudget
from diskmodel.report import display
from diskmodel.report.phrases import ms_text
from diskmodel.report.table import TextTable, table


def _duration(seconds: float | None) -> str:
    """`never` for a backlog still there at the end, else seconds, minutes or hours."""
    if seconds is None:
        return "not within the intervals"
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:,.0f} min"
    return f"{seconds / 3600:,.1f} h"


def _links_line(cs: CopyServicesInputs) -> str | None:
    links = cs.links
    if links is None:
        return None
    return (
        f"links: {links.count} x {links.speed_gbps} Gb/s, {links.payload_mb_s:,.1f} MB/s each "
        f"({links.payload_basis}), {links.distance_km:g} km"
    )


def _metro_table(p: Prediction) -> TextTable | None:
    rows = [
        [
            w.name,
            display.rate(w.iops),
            ms_text(w.write_response_time_ms),
            ms_text(r.propagation_ms),
            ms_text(r.link_ms),
            ms_text(r.secondary_write_ms),
            ms_text(r.added_ms),
        ]
        for w in p.workloads
        if (r := w.replication) is not None and r.mirror == "metro"
    ]
    if not rows:
        return None
    return table(
        ["workload", "IOPS", "write ms", "in flight", "links", "secondary", "added"],
        rows,
        title="Metro Mirror: a replicated write's parts (ms)",
    )


def _sweep_table(p: Prediction) -> TextTable | None:
    metro = [
        (w.name, w.replication.by_distance)
        for w in p.workloads
        if w.replication is not None and w.replication.by_distance
    ]
    if not metro:
        return None
    rows = [[name, *(ms_text(pt.write_response_ms) for pt in points)] for name, points in metro]
    return table(
        ["write ms at", *(f"{pt.distance_km:g} km" for pt in metro[0][1])],
        rows,
        title="Metro Mirror: write response time by distance (planned load)",
    )


def global_mirror_lines(gm: GlobalMirrorBudget) -> list[str]:
    """Global Mirror's budget in a few lines."""
    behind = (
        f"the writes fall behind in {gm.intervals_behind} of {len(gm.labels)} intervals, "
        f"backlog up to {gm.max_backlog_mb:,.0f} MB, drained in {_duration(gm.drain_s)}"
        if gm.intervals_behind
        else "the links carry every interval"
    )
    return [
        f"Global Mirror ({', '.join(gm.workloads)}; {gm.source}, {len(gm.labels)} intervals "
        f"of {gm.interval_s / 60:g} min): links {gm.capacity_mb_s:,.1f} MB/s; peak "
        f"{gm.peak_mb_s:,.1f} MB/s at {gm.peak_label} ({display.percent(gm.peak_utilization)} "
        f"of the links); {behind}",
        f"  recovery point: {gm.group_interval_s:g} s group interval + {gm.formation_s:g} s "
        f"formation, up to {gm.max_rpo_s:,.0f} s"
        + (f" (target {gm.rpo_target_s:g} s)" if gm.rpo_target_s is not None else "")
        + f"; consistency groups add {gm.coordination_added_ms * 1000:.2g} us to a write on "
        f"average; {gm.links_needed} link(s) carry the peak",
    ]


def _flashcopy_table(cs: CopyServicesInputs, p: Prediction) -> TextTable | None:
    if not cs.flashcopy:
        return None
    rates = {w.name: w for w in p.workloads}
    rows = []
    for fc in cs.flashcopy:
        w = rates.get(fc.workload)
        writes = (
            0.0
            if w is None
            else w.iops * sum(t.fraction for t in w.io_types if "write" in t.io_type)
        )
        rows.append(
            [
                fc.workload,
                fc.mode,
                f"{fc.window_hours:g} h",
                display.percent(fc.first_write_fraction),
                display.rate(writes * fc.source_reads_per_write),
                display.rate(writes * fc.target_writes_per_write),
                f"{fc.background_mb_s:,.0f}",
            ]
        )
    return table(
        [
            "source",
            "mode",
            "window",
            "first writes",
            "track reads/s",
            "track writes/s",
            "copy MB/s",
        ],
        rows,
        title="FlashCopy: extra back-end work at the planned load (in the ranks' utilisation)",
    )


def copy_services_parts(p: Prediction) -> list[str | TextTable]:
    """The copy services of one configuration, as lines and tables (none without them)."""
    cs = p.inputs.copy_services
    if cs is None:
        return []
    parts: list[str | TextTable] = []
    if cs.secondary is not None:
        parts.append(f"secondary: {cs.secondary}")
    links = _links_line(cs)
    if links is not None:
        parts.append(links)
    for drawn in (_metro_table(p), _sweep_table(p)):
        if drawn is not None:
            parts.append(drawn)
    if cs.global_mirror is not None:
        parts.extend(global_mirror_lines(cs.global_mirror))
    fc = _flashcopy_table(cs, p)
    if fc is not None:
        parts.append(fc)
    parts.extend(f"warning: {w}" for w in cs.warnings)
    return parts
