"""Report tables and alerts of the copy services (`Inputs.copy_services`, a workload's
`replication`): one table of the copy services in each configuration (one column each),
Metro Mirror's write response time by distance for the baseline, and the warnings as alerts.

Reads `Prediction`s only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from diskmodel.prediction import Prediction
from diskmodel.prediction.copy_services import (
    CopyServicesInputs,
    GlobalMirrorBudget,
    Replication,
)
from diskmodel.report import display
from diskmodel.report.view import Alert, Cell, Row, Table

DASH = Cell("–", "num")


def _ms(value: float | None) -> Cell:
    return Cell(f"{value:,.3f}" if value is not None else display.SATURATED_TEXT, "num")


def _hours(seconds: float | None) -> str:
    if seconds is None:
        return "not within the intervals"
    return f"{seconds / 60:,.0f} min" if seconds < 7200 else f"{seconds / 3600:,.1f} h"


def shows_copy_services(configs: Sequence[Prediction]) -> bool:
    """Whether any configuration has copy services."""
    return any(p.inputs.copy_services is not None for p in configs)


def copy_services_table(configs: Sequence[Prediction]) -> Table:
    """The copy services in each configuration (one column per configuration)."""

    def cells(show: Callable[[Prediction, CopyServicesInputs], Cell]) -> tuple[Cell, ...]:
        return tuple(
            show(p, p.inputs.copy_services) if p.inputs.copy_services is not None else DASH
            for p in configs
        )

    rows = [
        Row("secondary", cells(lambda p, cs: Cell(cs.secondary or "–"))),
        Row(
            "links",
            cells(
                lambda p, cs: Cell(
                    "–"
                    if cs.links is None
                    else f"{cs.links.count} x {cs.links.speed_gbps} Gb/s, "
                    f"{cs.links.payload_mb_s:,.1f} MB/s each, {cs.links.distance_km:g} km"
                )
            ),
        ),
    ]
    names = list(
        dict.fromkeys(w.name for p in configs for w in p.workloads if w.replication is not None)
    )
    for name in names:
        rows += _replication_rows(configs, name)
    if any(
        p.inputs.copy_services is not None and p.inputs.copy_services.global_mirror is not None
        for p in configs
    ):
        rows += _budget_rows(cells)
    sources = list(
        dict.fromkeys(
            fc.workload
            for p in configs
            if p.inputs.copy_services is not None
            for fc in p.inputs.copy_services.flashcopy
        )
    )
    for source in sources:

        def copy(p: Prediction, cs: CopyServicesInputs, source: str = source) -> Cell:
            fc = next((f for f in cs.flashcopy if f.workload == source), None)
            w = next((w for w in p.workloads if w.name == source), None)
            if fc is None or w is None:
                return DASH
            writes = w.iops * sum(t.fraction for t in w.io_types if "write" in t.io_type)
            text = (
                f"{fc.mode}, {display.percent(fc.first_write_fraction)} first writes: "
                f"{display.rate(writes * fc.source_reads_per_write)} track reads/s + "
                f"{display.rate(writes * fc.target_writes_per_write)} track writes/s"
            )
            if fc.background_mb_s > 0:
                text += f", background copy {fc.background_mb_s:,.0f} MB/s"
            return Cell(text)

        rows.append(Row(f"FlashCopy of {source}", cells(copy)))
    return Table(
        key="copy-services",
        caption="Copy services at the planned load",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="Metro Mirror: a replicated write waits for one round trip of light in the fibre "
        "(about 5 us per km each way), the replication links (host adapter ports, in the "
        "components table) and the secondary's own write; its write response includes them. "
        "Global Mirror: the links must carry each interval's writes; what they cannot is a "
        "backlog, and the recovery point is the group interval + about 4 s to form a group + "
        "the backlog's time on the links. FlashCopy: the first destage to each track after "
        "the copy reads the old track and writes it to the target (docs/copy-services.md).",
    )


def _replication(p: Prediction, name: str) -> tuple[float | None, Replication] | None:
    """(write response, replication) of workload `name` in `p`, if it is replicated there."""
    w = next((w for w in p.workloads if w.name == name), None)
    if w is None or w.replication is None:
        return None
    return w.write_response_time_ms, w.replication


def _replication_rows(configs: Sequence[Prediction], name: str) -> list[Row]:
    found = [_replication(p, name) for p in configs]

    def row(label: str, show: Callable[[float | None, Replication], Cell]) -> Row:
        return Row(f"{name}: {label}", tuple(DASH if f is None else show(*f) for f in found))

    return [
        row("mirror", lambda _, r: Cell(f"{r.mirror} mirror")),
        row("write response, ms", lambda write, _: _ms(write)),
        row("added by the mirror, ms", lambda _, r: _ms(r.added_ms)),
        row(
            "in flight / links / secondary, ms",
            lambda _, r: Cell(
                " / ".join(
                    _ms(v).text for v in (r.propagation_ms, r.link_ms, r.secondary_write_ms)
                ),
                "num",
            ),
        ),
    ]


Cells = Callable[[Callable[[Prediction, CopyServicesInputs], Cell]], tuple[Cell, ...]]


def _budget_rows(cells: Cells) -> list[Row]:
    def budget(show: Callable[[GlobalMirrorBudget], str]) -> tuple[Cell, ...]:
        return cells(
            lambda p, cs: DASH if cs.global_mirror is None else Cell(show(cs.global_mirror), "num")
        )

    return [
        Row(
            "Global Mirror: peak writes (links' share)",
            budget(
                lambda g: (
                    f"{g.peak_mb_s:,.1f} MB/s at {g.peak_label} "
                    f"({display.percent(g.peak_utilization)})"
                )
            ),
        ),
        Row(
            "Global Mirror: intervals behind, largest backlog",
            budget(
                lambda g: f"{g.intervals_behind} of {len(g.labels)}, {g.max_backlog_mb:,.0f} MB"
            ),
        ),
        Row("Global Mirror: longest drain", budget(lambda g: _hours(g.drain_s))),
        Row("Global Mirror: recovery point, at most", budget(lambda g: f"{g.max_rpo_s:,.0f} s")),
        Row("Global Mirror: links that carry the peak", budget(lambda g: str(g.links_needed))),
    ]


def copy_services_alerts(p: Prediction) -> list[Alert]:
    """The copy services' warnings of one configuration."""
    cs = p.inputs.copy_services
    if cs is None:
        return []
    out = [Alert("warning", p.name, text + ".") for text in cs.warnings]
    for w in p.workloads:
        r = w.replication
        if r is not None and r.mirror == "metro" and r.added_ms is None:
            out.append(
                Alert(
                    "critical",
                    p.name,
                    f"Metro Mirror: workload {w.name}'s replicated writes have no steady state "
                    "at the planned load (the links or the secondary saturate).",
                )
            )
    return out
