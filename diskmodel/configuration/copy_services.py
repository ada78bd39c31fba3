"""Copy services resolved once (`resolve_copy_services`): the secondary system as a
Configuration of its own at the replicated writes' planned rates, the links' rates and
distance, which workloads each mirror covers, Global Mirror's intervals (read from the
measured file, or the planned load as one interval), each FlashCopy's extra back-end work per
host write, and the sourced figures used (`components.copy_services_figures`).

Nothing below this step reads the scenario or a file: the model finds here every number the
copy services need.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from diskmodel.catalog import Catalog, Provenance
from diskmodel.components.copy_services_figures import CopyServicesFigures, copy_services_figures
from diskmodel.components.replication import (
    FlashCopyWork,
    coordination_added_s,
    first_write_fraction,
    flashcopy_work,
    global_mirror_intervals,
)
from diskmodel.errors import InputError
from diskmodel.prediction import Figure
from diskmodel.prediction.copy_services import (
    CopyServicesInputs,
    FlashCopyInput,
    GlobalMirrorBudget,
    LinksInput,
)
from diskmodel.scenario import Scenario
from diskmodel.scenario.copy_services import CopyServices, central, secondary_scenario
from diskmodel.tiering.skew import SkewCurve
from diskmodel.units import GB, KIB, MB, MS
from diskmodel.yamlio import resolve_in_folder

if TYPE_CHECKING:
    from diskmodel.configuration.records import Configuration
    from diskmodel.measured.intervals import Interval

DENSITY_STEPS = 512
"""Equal steps of a workload's capacity at which its write density is sampled (FlashCopy's
first-write share)."""
PLANNED_INTERVAL_S = 900.0
"""The length given to the planned load when Global Mirror judges it as one interval (a
measurement interval of the usual 15 minutes)."""
MAX_MEASURED_BYTES = 64 * 1024 * 1024
_READ_ENTRIES = 8
_read: OrderedDict[tuple[str, int, int, int, int], list[Interval]] = OrderedDict()
"""Measured files read in this process, by identity, size and modification time (as heat
maps are kept, `tiering.heatmap.read_heatmap`): every configuration a scenario resolves, its
alternatives' and the catalog band's, shares one reading of its week of intervals."""
_summed: OrderedDict[
    tuple[tuple[str, int, int, int, int], tuple[str, ...]],
    tuple[tuple[tuple[str, float], ...], float],
] = OrderedDict()
"""Their write MB/s per interval of the named scopes (`_measured_intervals`), likewise."""
_budgets: OrderedDict[
    tuple[GlobalMirrorConfig, int, float, tuple[str, ...]],
    tuple[GlobalMirrorBudget, tuple[str, ...]],
] = OrderedDict()
"""Global Mirror's link budgets (`global_mirror_budget`), by what they read."""

K = TypeVar("K")
V = TypeVar("V")


_KEPT_LOCK = threading.Lock()
"""The stores' bookkeeping from several threads (a Dask worker's: `model.kept.Kept`)."""


def _kept(store: OrderedDict[K, V], key: K, make: Callable[[], V]) -> V:
    """`store`'s value for `key`, made by `make()` when it has none; the last `_READ_ENTRIES`
    asked for are kept. The look-up, the move and the trim under `_KEPT_LOCK`, `make()`
    outside it (two threads may both make a key's value; it is that key's either way)."""
    with _KEPT_LOCK:
        found = store.get(key)
        if found is not None:
            store.move_to_end(key)
            return found
    found = make()
    with _KEPT_LOCK:
        store[key] = found
        while len(store) > _READ_ENTRIES:
            store.popitem(last=False)
    return found


FIGURES_ENTRY = "copy services"
"""The entry the copy services' figures are listed under among the catalog figures."""


@dataclass(frozen=True)
class LinksConfig:
    """The replication links: how many, each one's payload rate (MB/s) and how it was had,
    the route's length, and the port's protocol work per replicated write (the primary's host
    adapter's: PPRC runs on host adapter ports)."""

    count: int
    speed_gbps: int
    payload_mb_s: float
    payload_basis: str
    distance_km: float
    per_op_us: float


@dataclass(frozen=True)
class GlobalMirrorConfig:
    """Global Mirror: its workloads (indices), the consistency-group timing, the intervals
    the links must carry (label, write MB/s to replicate) of `interval_s` each, where they
    come from, and the recovery point to warn beyond."""

    workloads: tuple[int, ...]
    group_interval_s: float
    formation_s: float
    coordination_s: float
    interval_s: float
    intervals: tuple[tuple[str, float], ...]
    source: str
    rpo_target_s: float | None


@dataclass(frozen=True)
class FlashCopyConfig:
    """One FlashCopy: its source workload (index and name), mode, the share of destages that
    copy a track and how it was had, and the extra back-end work."""

    workload: int
    name: str
    mode: str
    window_s: float
    first_write_fraction: float
    first_write_basis: str
    work: FlashCopyWork


@dataclass(frozen=True)
class CopyServicesConfig:
    """Everything the model needs of the copy services (module docstring). `secondary` is
    None where no mirror is configured; `metro` lists the Metro Mirror workloads' indices and
    `secondary_workload` maps each mirrored workload's index to its index on the secondary."""

    secondary: Configuration | None
    secondary_workload: dict[int, int]
    links: LinksConfig | None
    metro: tuple[int, ...]
    distances_km: tuple[float, ...]
    global_mirror: GlobalMirrorConfig | None
    flashcopies: tuple[FlashCopyConfig, ...]
    round_trips: float
    fibre_us_per_km: float
    figures: tuple[tuple[str, float, Provenance], ...]
    secondary_text: str | None = None
    names: tuple[str, ...] = ()

    @property
    def mirrored(self) -> dict[int, str]:
        """Each replicated workload's index and its mirror ("metro" or "global")."""
        out = dict.fromkeys(self.metro, "metro")
        if self.global_mirror is not None:
            out.update(dict.fromkeys(self.global_mirror.workloads, "global"))
        return out


def _figures(f: CopyServicesFigures) -> tuple[tuple[str, float, Provenance], ...]:
    return tuple(
        (f"copy_services.{key}", float(getattr(f, key)), prov) for key, prov in f.provenance.items()
    )


def _links(cs: CopyServices, per_op_us: float, f: CopyServicesFigures) -> LinksConfig | None:
    links = cs.links
    if links is None:
        return None
    if links.bandwidth_mb_s is not None:
        rate, basis = links.bandwidth_mb_s, "given (bandwidth_mb_s)"
    else:
        rate = links.speed_gbps * f.fc_payload_mb_s_per_gbps * f.link_efficiency
        basis = (
            f"{links.speed_gbps} Gb/s Fibre Channel: {f.fc_payload_mb_s_per_gbps:g} MB/s per "
            f"Gb/s of payload x {f.link_efficiency:g} usable"
        )
    return LinksConfig(links.count, links.speed_gbps, rate, basis, links.distance_km, per_op_us)


def write_mb_per_io(read_fraction: float, write_kib: float) -> float:
    """MB written per host I/O."""
    return (1.0 - read_fraction) * write_kib * KIB / MB


def measured_file(reference: str, folder: Path | None) -> tuple[Path, list[Interval]]:
    """The Global Mirror `measured:` file `reference` (relative to the scenario's `folder`, and
    inside it): its path, links resolved, and its rows, read and parsed once per version of
    the file; an InputError naming the key when it is refused or cannot be read (`diskmodel
    check` opens it too)."""
    key, rows = _file_rows(reference, folder)
    return Path(key[0]), rows


def _file_rows(
    reference: str, folder: Path | None
) -> tuple[tuple[str, int, int, int, int], list[Interval]]:
    """`measured_file`'s rows, with the file's identity (path, device, inode, size, mtime)."""
    from diskmodel.measured.intervals import parse_intervals
    from diskmodel.yamlio import read_input_text

    path, _, inside = resolve_in_folder(reference, folder)
    where = f"copy_services.global_mirror.measured: {reference}"
    if not inside:
        raise InputError(f"{where}: outside the scenario's folder; copy it next to the scenario")
    if not path.is_file():
        raise InputError(f"{where}: no such file")
    info = os.stat(path)
    key = (str(path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    intervals = _kept(
        _read,
        key,
        lambda: parse_intervals(read_input_text(path, MAX_MEASURED_BYTES, "measured file"), where),
    )
    return key, intervals


def _measured_intervals(
    reference: str, folder: Path | None, names: dict[str, int]
) -> tuple[tuple[tuple[str, float], ...], float]:
    """The measured file's intervals as (time, write MB/s of the named workloads' scopes),
    and the interval length (the shortest step between times); summed once per file version
    and scopes (a run resolves the scenario again for every band and alternative)."""
    file_key, intervals = _file_rows(reference, folder)
    key = (file_key, tuple(sorted(names)))
    return _kept(_summed, key, lambda: _write_mb_by_time(intervals, names, reference))


def _write_mb_by_time(
    intervals: list[Interval], names: dict[str, int], reference: str
) -> tuple[tuple[tuple[str, float], ...], float]:
    where = f"copy_services.global_mirror.measured: {reference}"
    by_time: dict[dt.datetime, float] = {}
    seen: set[str] = set()
    for row in intervals:
        if row.scope in names:
            seen.add(row.scope)
            mb = row.io_rate * write_mb_per_io(row.read_fraction, row.write_kib)
            by_time[row.time] = by_time.get(row.time, 0.0) + mb
    missing = sorted(set(names) - seen)
    if missing:
        scopes = sorted({row.scope for row in intervals})
        raise InputError(
            f"{where}: no intervals for workload(s) {', '.join(missing)} (its scopes: "
            f"{', '.join(scopes[:20])}); a scope is named after the workload it measures"
        )
    times = sorted(by_time)
    steps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    step = min((s for s in steps if s > 0), default=PLANNED_INTERVAL_S)
    return tuple((t.strftime("%Y-%m-%d %H:%M"), by_time[t]) for t in times), step


def _global_mirror(
    cs: CopyServices,
    scenario: Scenario,
    indices: tuple[int, ...],
    folder: Path | None,
    f: CopyServicesFigures,
) -> GlobalMirrorConfig | None:
    gm = cs.global_mirror
    if gm is None or not indices:
        return None
    workloads = scenario.workloads

    def write_mb(i: int) -> float:
        w = workloads[i]
        return write_mb_per_io(central(w.read_fraction), central(w.write_size_kib))

    if gm.measured is not None:
        intervals, step = _measured_intervals(
            gm.measured, folder, {workloads[i].name: i for i in indices}
        )
        source = f"measured: {gm.measured}"
    else:
        planned = sum(central(workloads[i].iops or 0.0) * write_mb(i) for i in indices)
        intervals, step, source = (("planned load", planned),), PLANNED_INTERVAL_S, "planned load"
    return GlobalMirrorConfig(
        indices,
        gm.group_interval_s,
        f.formation_s,
        f.coordination_ms * MS,
        step,
        intervals,
        source,
        gm.rpo_target_s,
    )


def _flashcopy(
    scenario: Scenario, skews: dict[str, SkewCurve], f: CopyServicesFigures
) -> tuple[FlashCopyConfig, ...]:
    cs = scenario.copy_services
    assert cs is not None
    index = {w.name: i for i, w in enumerate(scenario.workloads)}
    track = f.track_kib * KIB
    out = []
    for fc in cs.flashcopy:
        i = index[fc.workload]
        w = scenario.workloads[i]
        destage = central(w.destage_ratio)
        writes_s = central(w.iops or 0.0) * (1.0 - central(w.read_fraction))
        window_s = fc.window_hours * 3600.0
        if fc.first_write_fraction is not None:
            share, basis = fc.first_write_fraction, "given (first_write_fraction)"
        else:
            curve = skews.get(w.name)
            edges = np.linspace(0.0, 1.0, DENSITY_STEPS + 1)
            density = None if curve is None else np.diff(curve.share(edges)) * DENSITY_STEPS
            tracks = w.capacity_gb * GB / track
            share = first_write_fraction(writes_s * destage, tracks, window_s, density)
            basis = (
                f"derived: {writes_s * destage:,.0f} destages/s over {tracks:,.0f} tracks of "
                f"{f.track_kib:g} KiB for {fc.window_hours:g} h, each track copied when first "
                "written, tracks written at the rate its skew gives"
            )
        work = flashcopy_work(
            mode=fc.mode,
            destage_ratio=destage,
            first_writes=share,
            capacity_bytes=w.capacity_gb * GB,
            copy_s=None if fc.copy_hours is None else fc.copy_hours * 3600.0,
            track_bytes=track,
        )
        out.append(FlashCopyConfig(i, w.name, fc.mode, window_s, share, basis, work))
    return tuple(out)


def resolve_copy_services(
    scenario: Scenario,
    catalog: Catalog,
    base_dir: Path | None,
    *,
    per_op_us: float,
    skews: dict[str, SkewCurve],
    resolve_secondary: Callable[[Scenario], Configuration],
) -> CopyServicesConfig | None:
    """The copy services of `scenario` (at its central corner), or None where it has none.
    `per_op_us`: the primary host adapter's protocol work per I/O (a link port's);
    `skews`: each workload's resolved skew curve; `resolve_secondary`: how a scenario becomes
    a Configuration (the caller's `resolve`, so this module need not import it)."""
    cs = scenario.copy_services
    if cs is None:
        return None
    f = copy_services_figures()
    names = [w.name for w in scenario.workloads]
    mirrored = cs.mirrored(names)
    metro = tuple(i for i, n in enumerate(names) if mirrored.get(n) == "metro")
    global_ = tuple(i for i, n in enumerate(names) if mirrored.get(n) == "global")
    secondary = None
    secondary_workload: dict[int, int] = {}
    if mirrored and cs.secondary is not None:
        replica = secondary_scenario(scenario, mirrored)
        secondary = resolve_secondary(replica)
        on_secondary = [w.name for w in replica.workloads]
        secondary_workload = {names.index(n): k for k, n in enumerate(on_secondary)}
    distances = tuple(cs.metro_mirror.distances_km) if cs.metro_mirror is not None else ()
    return CopyServicesConfig(
        secondary_text=_secondary_text(cs),
        names=tuple(names),
        secondary=secondary,
        secondary_workload=secondary_workload,
        links=_links(cs, per_op_us, f),
        metro=metro,
        distances_km=distances,
        global_mirror=_global_mirror(cs, scenario, global_, base_dir, f),
        flashcopies=_flashcopy(scenario, skews, f),
        round_trips=f.round_trips_per_write,
        fibre_us_per_km=f.fibre_us_per_km,
        figures=_figures(f),
    )


def _secondary_text(cs: CopyServices) -> str | None:
    """The secondary in one line: model, processors, cache, ports, DA pairs and pools."""
    if cs.secondary is None:
        return None
    sy = cs.secondary.system
    pools = "; ".join(
        f"{p.name}: " + ", ".join(f"{g.count} x {g.drive} {g.raid}" for g in p.ranks)
        for p in cs.secondary.pools
    )
    return (
        f"{sy.model}, {sy.processor_ways}-way, {sy.cache_gb:g} GB cache, {sy.host_ports} host "
        f"ports, {sy.da_pairs} DA pairs; pools {pools}"
    )


def global_mirror_budget(cs: CopyServicesConfig) -> tuple[GlobalMirrorBudget | None, list[str]]:
    """Global Mirror's link budget over its intervals (components.replication's fluid model:
    it needs the intervals and the links alone), and its warnings: links too slow for the
    peak, a recovery point beyond its target. Worked out once for the same Global Mirror,
    links and workloads (a run resolves its scenario again for every band, alternative and
    catalog estimate, most of them with the same links; a week of intervals is 0.4 ms)."""
    gm, links = cs.global_mirror, cs.links
    if gm is None or links is None or not gm.intervals:
        return None, []
    key = (gm, links.count, links.payload_mb_s, cs.names)
    budget, warnings = _kept(_budgets, key, lambda: _budget(cs, gm, links))
    return budget, list(warnings)


def _budget(
    cs: CopyServicesConfig, gm: GlobalMirrorConfig, links: LinksConfig
) -> tuple[GlobalMirrorBudget, tuple[str, ...]]:
    """`global_mirror_budget` worked out (it reads only `gm`, the links' count and payload
    rate and the workloads' names)."""
    capacity = links.count * links.payload_mb_s
    demand = [mb for _, mb in gm.intervals]
    run = global_mirror_intervals(
        demand,
        interval_s=gm.interval_s,
        capacity_mb_s=capacity,
        group_interval_s=gm.group_interval_s,
        formation_s=gm.formation_s,
    )
    labels = tuple(label for label, _ in gm.intervals)
    cycle = gm.group_interval_s + gm.formation_s
    peak_mb = run.demand_mb_s[run.peak]
    budget = GlobalMirrorBudget(
        workloads=tuple(cs.names[i] for i in gm.workloads),
        source=gm.source,
        interval_s=gm.interval_s,
        group_interval_s=gm.group_interval_s,
        formation_s=gm.formation_s,
        capacity_mb_s=capacity,
        labels=labels,
        demand_mb_s=run.demand_mb_s,
        offered_utilization=run.offered_utilization,
        busy=run.busy,
        backlog_mb=run.backlog_mb,
        rpo_s=run.rpo_s,
        peak_label=labels[run.peak],
        peak_mb_s=peak_mb,
        peak_utilization=run.offered_utilization[run.peak],
        intervals_behind=sum(u > 1.0 for u in run.offered_utilization),
        max_backlog_mb=max(run.backlog_mb),
        drain_s=run.drain_s if np.isfinite(run.drain_s) else None,
        max_rpo_s=max(run.rpo_s),
        rpo_target_s=gm.rpo_target_s,
        coordination_added_ms=coordination_added_s(gm.coordination_s, cycle) / MS,
        links_needed=max(int(np.ceil(peak_mb / links.payload_mb_s)), 1),
    )
    warnings = []
    if run.too_slow:
        drain = (
            "still there at the end of the intervals given"
            if budget.drain_s is None
            else f"takes up to {budget.drain_s / 60:,.0f} min to drain"
        )
        warnings.append(
            f"Global Mirror: the links are too slow for the peak: at {budget.peak_label} the "
            f"writes need {peak_mb:,.1f} MB/s and {links.count} links carry {capacity:,.1f} "
            f"MB/s ({budget.peak_utilization:.0%}); in {budget.intervals_behind} of "
            f"{len(demand)} intervals the writes fall behind, the backlog reaches "
            f"{budget.max_backlog_mb:,.0f} MB and {drain}, and the recovery point reaches "
            f"{budget.max_rpo_s:,.0f} s; {budget.links_needed} links carry the peak"
        )
    if gm.rpo_target_s is not None and budget.max_rpo_s > gm.rpo_target_s:
        warnings.append(
            f"Global Mirror: the recovery point reaches {budget.max_rpo_s:,.0f} s, beyond the "
            f"target of {gm.rpo_target_s:g} s"
        )
    return budget, tuple(warnings)


def copy_figures(cs: CopyServicesConfig) -> tuple[Figure, ...]:
    """The sourced figures the copy services used, as the report lists catalog figures."""
    return tuple(
        Figure(FIGURES_ENTRY, key.removeprefix("copy_services."), value, prov.text())
        for key, value, prov in cs.figures
    )


def copy_services_inputs(cs: CopyServicesConfig) -> CopyServicesInputs:
    """The copy services as the report shows them (`prediction.CopyServicesInputs`)."""
    budget, warnings = global_mirror_budget(cs)
    links = cs.links
    return CopyServicesInputs(
        secondary=cs.secondary_text,
        links=None
        if links is None
        else LinksInput(
            links.count,
            links.speed_gbps,
            links.payload_mb_s,
            links.payload_basis,
            links.distance_km,
        ),
        metro_mirror=tuple(cs.names[i] for i in cs.metro),
        global_mirror_workloads=()
        if cs.global_mirror is None
        else tuple(cs.names[i] for i in cs.global_mirror.workloads),
        distances_km=cs.distances_km,
        global_mirror=budget,
        flashcopy=tuple(
            FlashCopyInput(
                fc.name,
                fc.mode,
                fc.window_s / 3600.0,
                fc.first_write_fraction,
                fc.first_write_basis,
                fc.work.source_reads_per_write,
                fc.work.target_writes_per_write,
                fc.work.background_bytes_per_s / MB,
            )
            for fc in cs.flashcopies
        ),
        warnings=tuple(warnings),
    )
