"""Report tables of where the load goes inside a configuration at its planned load: every
component, each workload's data on its pool's tiers, each tier's load; and the component
groups the summaries count.

Reads `Prediction`s only and formats with `diskmodel.report.display` and the result phrases.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import ComponentResult, Prediction
from diskmodel.report import display
from diskmodel.report.phrases import ms_cell, utilization_cell
from diskmodel.report.view import Cell, Row, Table


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


CARD_PREFIX = "host adapter card"
"""How the model names a host adapter card's station (a host_adapter station, beside the
ports): the ports and their cards are counted apart."""

LINK_PREFIX = "replication link"
"""How the model names a Metro Mirror link's station (a host_adapter station: PPRC runs on
host adapter ports): the links are counted apart from the host ports."""

GROUP_TITLES = (
    ("channel", "", "FICON channels"),
    ("host_adapter", "", "host adapter ports"),
    ("host_adapter", CARD_PREFIX, "host adapter cards"),
    ("host_adapter", LINK_PREFIX, "replication links"),
    ("processor", "", "processor servers"),
    ("device_adapter", "", "device adapter pairs"),
    ("rank", "", "ranks (per drive)"),
)
"""The component groups the summaries count, in the order of an I/O's path: kind, the name
prefix that sets a group apart within its kind ("" for the rest), title."""


def _role(c: ComponentResult) -> str:
    """The prefix of the group within its kind `c` belongs to (`GROUP_TITLES`)."""
    return next((p for p in (CARD_PREFIX, LINK_PREFIX) if c.name.startswith(p)), "")


def component_groups(
    components: Sequence[ComponentResult],
) -> list[tuple[str, list[ComponentResult]]]:
    """(title, members) of each group of components present: the host ports, the host
    adapter cards and the replication links apart (all are `host_adapter` stations; 16 ports
    on 4 cards are 16 ports and 4 cards, not 20 ports), then the servers, the DA pairs and the
    ranks; a z/OS configuration's FICON channels (the host's) first."""
    out = []
    for kind, role, title in GROUP_TITLES:
        members = [c for c in components if c.kind == kind and _role(c) == role]
        if members:
            out.append((title, members))
    return out
