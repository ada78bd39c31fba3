"""Resolution: a validated scenario, the catalog and the files it names, resolved once.

`resolve(scenario, catalog, base_dir)` turns a validated scenario into a `Configuration`: every
catalog figure looked up (drives as installed in this system), every rank placed on its DA
pair and server, every default filled in and listed, every skew curve built and every heat map
read. Nothing below this step (the model, placement, the analyses) sees a path, a catalog or a
scenario; the report sees only what the model carries into the `Prediction`.

`resolve_scenario` gives the baseline and each `compare` alternative; an alternative that
changes the cache size (and does not set the hit ratio itself) gets each workload's read hit
ratio projected from the baseline's with McNutt's hierarchical reuse model, and the projection
is carried as the hit ratio used, with its basis.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from itertools import chain
from pathlib import Path

from diskmodel.catalog import Catalog, Provenance, StorageSystem, load_catalog
from diskmodel.components import cache
from diskmodel.configuration.copy_services import (
    copy_figures,
    copy_services_inputs,
    resolve_copy_services,
)
from diskmodel.configuration.inputs import (
    model_value,
    shown_inputs,
    system_input,
)
from diskmodel.configuration.records import (
    ApplicationConfig,
    Configuration,
    Hardware,
    LogConfig,
    PoolConfig,
    Rank,
    ServiceLevelConfig,
    WorkloadConfig,
)
from diskmodel.configuration.shared import SharedParts, SkewCurves
from diskmodel.configuration.zos import FiconConfig, resolve_zos
from diskmodel.logwrite import LogPath
from diskmodel.prediction import Inputs
from diskmodel.scenario import Application, Log, Pool, Scenario, Workload, expand_ranks
from diskmodel.scenario.ranks import round_robin_groups
from diskmodel.tiering.curves import derived_mb_curve, described_skew
from diskmodel.tiering.heatmap import MAX_HEATMAP_EXTENTS, HeatMapError, read_heatmap
from diskmodel.tiering.records import Preference
from diskmodel.tiering.skew import UNIFORM, SkewCurve
from diskmodel.units import MS
from diskmodel.vocabulary import TIERS
from diskmodel.workload import IoMix

# Heat maps already read in this run: small-I/O curve, MB curve, description, extents.
HeatMaps = dict[str, tuple[SkewCurve, SkewCurve | None, str, int]]


def resolve_scenario(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    *,
    allow_outside_heatmaps: bool = False,
) -> tuple[Configuration, ...]:
    """The baseline and each `compare` alternative, resolved (hit ratios projected where an
    alternative changes the cache size and does not set the hit ratio itself)."""
    catalog = catalog or load_catalog()
    scenario = scenario.corner("central")  # ranges at their middle; bands: analyses.predict
    settings = {alt.name: alt.set for alt in scenario.analyses.compare}
    heatmaps: HeatMaps = {}
    out = []
    for name, variant in scenario.alternatives(catalog):
        projected = None
        if variant is not scenario:
            projected = projected_hit_ratios(scenario, variant, settings[name])
        out.append(
            resolve(
                variant,
                catalog,
                base_dir,
                name=name,
                hit_ratios=projected,
                allow_outside_heatmaps=allow_outside_heatmaps,
                _heat=heatmaps,
            )
        )
    return tuple(out)


def resolve(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    *,
    name: str | None = None,
    hit_ratios: Sequence[tuple[float, str]] | None = None,
    allow_outside_heatmaps: bool = False,
    _heat: HeatMaps | None = None,
    shown: bool = True,
    curves: SkewCurves | None = None,
    parts: SharedParts | None = None,
) -> Configuration:
    """One scenario (already validated) as a `Configuration`.

    hit_ratios: per workload, (read hit ratio, basis) replacing the scenario's (a projection to
    another cache size). base_dir: the scenario file's folder, where heat-map paths start;
    a heat map outside it is refused unless `allow_outside_heatmaps`. shown=False leaves out
    what only the report reads (`inputs` holds the system and the service level alone,
    `shown_inputs`): for a configuration that is only solved, never reported (a calibration's
    model evaluation, a sizing candidate, a band's end), where listing every figure with its
    provenance was a third of the resolution's time.
    curves: skew curves described by points or a level, taken from here where built before
    and kept here (`SkewCurves`): configurations of one search then share each curve, and
    what placement computes from it (`SkewCurve.ranking_bins`).
    parts: what configurations resolved together share, kept by what each depends on
    (`SharedParts`, its curves in place of `curves`), for `parts.catalog` only.
    """
    catalog = catalog or load_catalog()
    if parts is not None and parts.catalog is not catalog:
        parts = None
    if parts is not None:
        curves = parts.curves
    if shown or scenario.ranges:
        # A scenario with no ranges is its own central corner, to every value (the copy would
        # only mark the system's front-end latency as given, which only the defaults listed
        # read, and they are listed only when `shown`).
        scenario = scenario.corner("central")
    given = scenario.model_workloads  # the logs' writes after the scenario's workloads
    ficon, zos = resolve_zos(scenario, catalog, given)
    inputs: Inputs | None = None  # what is shown of the configuration: listed below
    if parts is not None and ficon is None and not shown:
        hardware, service_level, inputs = parts.front(
            scenario.system, scenario.service_level, lambda: _front(scenario, catalog)
        )
    else:
        hardware = _hardware(scenario, catalog, ficon)
        service_level = ServiceLevelConfig.of(scenario.service_level, channels=ficon is not None)
    system = hardware.system
    ranks = _ranks(scenario, catalog, system, parts)
    pools = tuple(
        _pool(p, system, catalog)
        if parts is None
        else parts.pool(p, system, partial(_pool, p, system, catalog))
        for p in scenario.pools
    )
    heat = {} if _heat is None else _heat
    app = scenario.application
    key, kept = (
        (None, None)
        if parts is None
        else parts.resolved_workloads(given, app, hit_ratios, base_dir, allow_outside_heatmaps)
    )
    workloads = (
        kept
        if kept is not None
        else tuple(
            _workload(
                w,
                None if hit_ratios is None or i >= len(hit_ratios) else hit_ratios[i],
                base_dir,
                heat,
                allow_outside_heatmaps,
                app,
                curves,
            )
            for i, w in enumerate(given)
        )
    )
    if parts is not None and key is not None and kept is None:
        parts.keep_workloads(key, workloads)
    if ficon is not None:
        workloads = tuple(replace(w, zos=z) for w, z in zip(workloads, zos, strict=True))
    copies = resolve_copy_services(
        scenario,
        catalog,
        base_dir,
        per_op_us=hardware.host_adapter.per_io_overhead_us,
        skews={w.name: w.skew for w in workloads},
        # The secondary is solved, never listed (the report names it by `secondary_text`).
        resolve_secondary=lambda replica: resolve(
            replica,
            catalog,
            base_dir,
            allow_outside_heatmaps=allow_outside_heatmaps,
            _heat=heat,
            shown=False,
        ),
    )
    if inputs is None:
        inputs = shown_inputs(scenario, hardware, ranks, pools, workloads, service_level, shown)
    if copies is not None and shown:  # as the report lists them, like the rest of `inputs`
        inputs = dataclasses.replace(
            inputs,
            figures=(*inputs.figures, *copy_figures(copies)),
            copy_services=copy_services_inputs(copies),
        )
    return Configuration(
        name=name or scenario.name,
        hardware=hardware,
        ranks=ranks,
        pools=pools,
        workloads=workloads,
        service_level=service_level,
        curve_points=scenario.analyses.curve.points,
        inputs=inputs,
        logs=tuple(_log(log, hardware) for log in scenario.logs),
        application=_application(scenario),
        copy_services=copies,
    )


def resolve_again(
    config: Configuration,
    scenario: Scenario,
    catalog: Catalog,
    base_dir: Path | None = None,
    curves: SkewCurves | None = None,
) -> Configuration:
    """What `resolve(scenario, catalog, base_dir, shown=False)` gives (tested equal), where
    `config` is that of a scenario which differs from `scenario` at most in its workloads' own
    figures (rate, mix, hit ratio, destage ratio, skew, pinned share; not their names, pools,
    number or order) and in the system's front-end latency: a calibration's evaluations, one
    interval at other values of the fitted parameters. The ranks (each drive as installed),
    the pools, the service level and the inputs shown for them are `config`'s; the system (and
    its input) and the workloads are resolved again, each skew curve taken from `curves` where
    it was built before. Ranks and inputs were most of a resolution's time, and a curve built
    again computes its ranking again at every placement. A scenario whose resolution reads
    the workloads or the front end elsewhere too (logs, an application, copy services, z/OS
    workloads) is resolved whole."""
    scenario = scenario.corner("central")
    given = scenario.model_workloads
    if (
        config.logs
        or config.application is not None
        or config.copy_services is not None
        or config.hardware.ficon is not None
        or config.inputs.figures
    ):
        return resolve(scenario, catalog, base_dir, shown=False)
    if [(w.name, w.pool) for w in given] != [(w.name, w.pool) for w in config.workloads]:
        raise ValueError("resolve_again: the scenario's workloads are not the configuration's")
    heat: HeatMaps = {}
    workloads = tuple(_workload(w, None, base_dir, heat, False, None, curves) for w in given)
    hardware = _hardware(scenario, catalog)
    return replace(
        config,
        name=scenario.name,
        hardware=hardware,
        workloads=workloads,
        curve_points=scenario.analyses.curve.points,
        inputs=replace(config.inputs, system=system_input(hardware)),
    )


_SCENARIO_FRONT_END = Provenance(
    basis="the scenario's system.front_end_latency_us (measured or calibrated), in place of "
    "the catalog's"
)
"""The provenance of a front-end latency the scenario gives (made once: a calibration resolves
the system at every evaluation)."""


def _front(scenario: Scenario, catalog: Catalog) -> tuple[Hardware, ServiceLevelConfig, Inputs]:
    """What an open configuration resolved unshown (`resolve`, shown=False) takes from its
    system and service level sections alone: its hardware, its service level and its inputs
    (which, unshown, list only those two: `shown_inputs`)."""
    hardware = _hardware(scenario, catalog)
    level = ServiceLevelConfig.of(scenario.service_level)
    return hardware, level, shown_inputs(scenario, hardware, (), (), (), level, shown=False)


def _hardware(scenario: Scenario, catalog: Catalog, ficon: FiconConfig | None = None) -> Hardware:
    """The system as the scenario configures it, with the scenario's front-end latency (measured,
    calibrated; a range at its middle here) in place of the catalog's where it gives one, and
    the FICON attachment `ficon` (`resolve_zos`)."""
    cfg = scenario.system
    system: StorageSystem = catalog.systems[cfg.model]
    if cfg.front_end_latency_us is not None:
        system = system.model_copy(
            update={
                "front_end_latency_us": cfg.front_end_latency_us,
                "provenance": {**system.provenance, "front_end_latency_us": _SCENARIO_FRONT_END},
            }
        )
    return Hardware(
        system=system,
        host_adapter=system.host_adapter(cfg.host_adapter),
        processor=system.processor_option(cfg.processor_ways),
        host_ports=cfg.host_ports,
        da_pairs=cfg.da_pairs,
        cache_gb=cfg.cache_gb,
        ordered_destage=cfg.destage_order == "ordered",
        ficon=ficon,
    )


def _ranks(
    scenario: Scenario, catalog: Catalog, system: StorageSystem, parts: SharedParts | None = None
) -> tuple[Rank, ...]:
    """Every rank of the scenario as installed in `system`, on its DA pair and server (the
    ranks of one drive type share one installed drive, `Catalog.installed_drive`); each
    taken from `parts` where made before (a group dealt round-robin, all its ranks at once)."""
    if parts is not None and scenario.system.rank_placement == "round_robin":
        pairs = scenario.system.da_pairs
        return tuple(
            chain.from_iterable(
                parts.group_ranks(system.name, pool.name, group, first, first_pair, pairs)
                for pool, group, first, first_pair in round_robin_groups(scenario)
            )
        )
    added = [g.added for pool in scenario.pools for g in pool.ranks for _ in range(g.count)]
    if parts is not None:
        return tuple(
            parts.rank(system.name, r, flag)
            for r, flag in zip(expand_ranks(scenario), added, strict=True)
        )
    # Each drive type looked up once (a sizing search resolves thousands of configurations).
    drives = {
        g.drive: catalog.installed_drive(system.name, g.drive)
        for pool in scenario.pools
        for g in pool.ranks
    }
    return tuple(
        Rank(
            index=r.index,
            pool=r.pool,
            drive=drives[r.drive],
            raid=catalog.raid_formats[r.raid],
            da_pair=r.da_pair,
            server=r.server,
            added=flag,
        )
        for r, flag in zip(expand_ranks(scenario), added, strict=True)
    )


def _application(scenario: Scenario) -> ApplicationConfig | None:
    app = scenario.application
    if app is None:
        return None
    return ApplicationConfig(
        name=app.name,
        users=app.users,
        think_time_s=app.think_time_ms * MS,
        cpu_s=app.cpu_ms_per_transaction * MS,
        cpus=app.cpus,
        parallel_ios=app.parallel_ios,
        ios_per_transaction=sum(w.ios_per_transaction or 0.0 for w in scenario.workloads),
    )


def _log(log: Log, hw: Hardware) -> LogConfig:
    s, port = hw.system, hw.host_adapter
    path = LogPath.from_hardware(
        s.front_end_latency_us,
        port.port_bandwidth_mb_s,
        s.write_copy_us_per_kib,
        log.page_kib,
        striping_us=s.log_striping_us
        if log.striping_overhead_us is None
        else log.striping_overhead_us,
    )
    basis = (
        f"{s.name}: {s.front_end_latency_us:g} us fixed per I/O (front_end_latency_us); per "
        f"{log.page_kib:g} KiB page, {port.name} port transfer at {port.port_bandwidth_mb_s:g} "
        f"MB/s plus {s.write_copy_us_per_kib:g} us/KiB copy into cache and NVS "
        "(write_copy_us_per_kib); each stripe's I/O started one fixed time after the previous"
    )
    return LogConfig(
        name=log.name,
        pool=log.pool,
        commit_rate=log.commit_rate,
        page_shares=log.page_shares,
        page_kib=log.page_kib,
        stripes=log.stripes,
        links=log.links,
        large_write_pages=log.large_write_pages,
        ios_per_commit=log.ios_per_commit(),
        path=path,
        path_basis=basis,
    )


def projected_hit_ratios(
    baseline: Scenario, alternative: Scenario, settings: dict[str, object]
) -> list[tuple[float, str]] | None:
    old, new = baseline.system.cache_gb, alternative.system.cache_gb
    if new == old or any(key.endswith("read_hit_ratio") for key in settings):
        return None
    out = []
    for w in alternative.workloads:
        given = model_value(w.read_hit_ratio)
        projected = cache.project_read_hit_ratio(given, old, new)
        out.append(
            (
                projected,
                f"projected from {given:g} at {old:g} GB cache to {new:g} GB "
                f"(McNutt's hierarchical reuse model, theta {cache.HIERARCHICAL_REUSE_THETA:g})",
            )
        )
    return out


def _pool(pool: Pool, system: StorageSystem, catalog: Catalog) -> PoolConfig:
    """The pool as configured: its Easy Tier and the capacity of each of its tiers, that of
    its ranks (as `_ranks` installs them in `system`) summed rank by rank in rank order from
    0, as `Rank.capacity_gb` gives each; worked out group by group, a group's ranks being
    alike and the pool's ranks its groups' in order (`expand_ranks`)."""
    held: dict[str, float] = {}
    for group in pool.ranks:
        if group.count == 0:  # no rank: its tier is not the pool's
            continue
        drive = catalog.installed_drive(system.name, group.drive)
        capacity = catalog.raid_formats[group.raid].data_drives * drive.capacity_gb
        total = held.get(drive.tier, 0)
        for _ in range(group.count):
            total += capacity
        held[drive.tier] = total
    tiers = tuple(t for t in TIERS if t in held)
    return PoolConfig(
        name=pool.name,
        easy_tier=pool.easy_tier.mode == "auto",
        utilization_target=pool.easy_tier.utilization_target,
        tiers=tiers,
        tier_capacity_gb=tuple(held[t] for t in tiers),
        host_tiering=pool.host_tiering,
        easy_tier_generation=pool.easy_tier.generation_on(system),
    )


def _skew(
    workload: Workload,
    base_dir: Path | None,
    heat: HeatMaps,
    allow_outside: bool,
    curves: SkewCurves | None = None,
) -> tuple[SkewCurve, SkewCurve | None, str]:
    """The small-I/O curve, the MB curve (None: derived by placement) and a description; a
    curve described by points or a level is taken from `curves` where it was built before."""
    skew = workload.skew
    if skew is None:
        return UNIFORM, None, "none (uniform: I/O in proportion to capacity)"
    seq = skew.sequential_level
    if skew.heatmap is not None:
        key = f"{base_dir}\0{skew.heatmap}"
        if key not in heat:  # several workloads and alternatives may name one heat map
            read = read_heatmap(skew.heatmap, base_dir, allow_outside=allow_outside)
            heat[key] = (
                read.small_io,
                read.mb,
                f"heat map {skew.heatmap} ({read.extent_count:,} extents)",
                read.extent_count,
            )
            extents = sum(entry[3] for entry in heat.values())
            if extents > MAX_HEATMAP_EXTENTS:
                # Each file is bounded; many files (64 workloads, each its own 50 MB map)
                # would not be: the run's total is bounded too (issue 17 item 6).
                raise HeatMapError(
                    f"the heat maps this scenario names hold {extents:,} extents in all, up to "
                    f"{skew.heatmap}; diskmodel reads at most {MAX_HEATMAP_EXTENTS:,} per run "
                    "(about one 50 MB file)"
                )
        small, mb, text, _ = heat[key]
        return small, mb if seq is None else derived_mb_curve(small, seq), text
    level = skew.level_value or 1.0
    described = (None if skew.points is None else tuple(map(tuple, skew.points)), level, seq)
    built = None if curves is None else curves.get(described)
    if built is None:
        built = described_skew(skew.points, level, seq)
        if curves is not None:
            curves[described] = built
    curve, mb = built
    if skew.points is not None:
        text = "points " + ", ".join(f"{c:g} of capacity: {f:g} of I/O" for c, f in skew.points)
    else:
        preset = f" ({skew.level})" if isinstance(skew.level, str) else ""
        text = f"level {level:g}{preset}"
    return curve, mb, text


def _workload(
    w: Workload,
    hit: tuple[float, str] | None,
    base_dir: Path | None,
    heat: HeatMaps,
    allow_outside: bool,
    app: Application | None,
    curves: SkewCurves | None = None,
) -> WorkloadConfig:
    hit_ratio, basis = hit if hit is not None else (model_value(w.read_hit_ratio), "as given")
    small, mb, description = _skew(w, base_dir, heat, allow_outside, curves)
    population = w.queue_depth if w.queue_depth is not None else w.users
    kind = "queue_depth" if w.queue_depth is not None else "users" if w.users is not None else None
    if w.ios_per_transaction is not None and app is not None:
        population, kind = app.users, "application"
    return WorkloadConfig(
        name=w.name,
        pool=w.pool,
        iops=None if w.is_closed or w.iops is None else model_value(w.iops),
        population=population,
        population_kind=kind,
        think_time_s=w.think_time_ms * MS,
        mix=IoMix.of(
            read_fraction=model_value(w.read_fraction),
            read_hit_ratio=hit_ratio,
            read_sequential_fraction=model_value(w.read_sequential_fraction),
            write_sequential_fraction=model_value(w.write_sequential_fraction),
            read_size_kib=model_value(w.read_size_kib),
            write_size_kib=model_value(w.write_size_kib),
            destage_ratio=model_value(w.destage_ratio),
            backend_kib=w.backend_kib,
        ),
        read_hit_ratio=hit_ratio,
        read_hit_ratio_basis=basis,
        capacity_gb=w.capacity_gb,
        skew=small,
        mb_skew=mb,
        skew_description=description,
        pin_tier=w.pin_tier,
        iops_range=w.iops_range,
        ios_per_transaction=w.ios_per_transaction,
        preference=None
        if w.pin is None
        else Preference(
            w.pin.tier,
            w.pin.capacity_gb,
            None if w.pin.io_share is None else model_value(w.pin.io_share),
        ),
    )
