"""The resolved configuration: a scenario, the catalog and the files it names, resolved once.

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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from diskmodel.catalog import (
    Catalog,
    Drive,
    HostAdapterType,
    ProcessorOption,
    Provenance,
    RaidFormat,
    StorageSystem,
    iter_figures,
    load_catalog,
)
from diskmodel.components import cache, raid
from diskmodel.logwrite import LogPath
from diskmodel.prediction import (
    DefaultUsed,
    Figure,
    Inputs,
    PoolInput,
    RankGroupInput,
    ServiceLevelInput,
    SystemInput,
    WorkloadInput,
)
from diskmodel.scenario import Application, Log, Scenario, ServiceLevel, Workload, expand_ranks
from diskmodel.tiering.heatmap import MAX_HEATMAP_EXTENTS, HeatMapError, read_heatmap
from diskmodel.tiering.placement import Preference
from diskmodel.tiering.skew import UNIFORM, SkewCurve, derived_mb_curve, described_skew
from diskmodel.units import GB, MS
from diskmodel.vocabulary import COMPONENT_KINDS, TIERS, easy_tier_follows_load
from diskmodel.workload import IoMix

# Heat maps already read in this run: small-I/O curve, MB curve, description, extents.
HeatMaps = dict[str, tuple[SkewCurve, SkewCurve | None, str, int]]


@dataclass(frozen=True)
class Rank:
    """One RAID rank as installed: its drive (figures for this system's packaging), RAID
    format, DA pair, owning server, and whether it was added empty to a pool holding data."""

    index: int  # position among all ranks of the system, in file order
    pool: str
    drive: Drive
    raid: RaidFormat
    da_pair: int
    server: int
    added: bool

    @property
    def tier(self) -> str:
        return self.drive.tier

    @property
    def capacity_gb(self) -> float:
        """Usable capacity: data drives x drive capacity."""
        return self.raid.data_drives * self.drive.capacity_gb

    @property
    def active_drives(self) -> int:
        return raid.active_drives(self.raid)


@dataclass(frozen=True)
class PoolConfig:
    """An extent pool: Easy Tier and its tiers (fastest first) with their usable capacity."""

    name: str
    easy_tier: bool
    utilization_target: float
    tiers: tuple[str, ...]
    tier_capacity_gb: tuple[float, ...]
    host_tiering: bool = False  # the host places its data by its own read counts
    easy_tier_generation: int = 2  # 1: by I/O density only; 2: load limits and auto-rebalance

    def capacity_gb(self, tier: str) -> float:
        return self.tier_capacity_gb[self.tiers.index(tier)]

    @property
    def placement_follows_load(self) -> bool:
        """Easy Tier (second generation) over two or more tiers: the tiers' load limits make
        where data lands depend on the load (`vocabulary.easy_tier_follows_load`)."""
        return easy_tier_follows_load(self.easy_tier, self.easy_tier_generation, len(self.tiers))

    @property
    def rebalanced(self) -> bool:
        """Easy Tier's auto-rebalance spreads each tier's load over its ranks (generation 2)."""
        return self.easy_tier and self.easy_tier_generation >= 2


@dataclass(frozen=True)
class WorkloadConfig:
    """A workload with every default filled in.

    Open: `iops` is the planned host rate. Closed: `population` host I/Os in flight
    (`population_kind` "queue_depth") or users with `think_time_s` ("users"); the rate follows.
    """

    name: str
    pool: str
    iops: float | None
    population: int | None
    population_kind: str | None
    think_time_s: float
    mix: IoMix
    read_hit_ratio: float
    read_hit_ratio_basis: str
    capacity_gb: float
    skew: SkewCurve
    mb_skew: SkewCurve | None
    skew_description: str
    pin_tier: str | None
    iops_range: tuple[float, float] | None
    ios_per_transaction: float | None = None  # driven by the application (population: users)
    preference: Preference | None = None  # part of the workload pinned to a tier

    @property
    def is_closed(self) -> bool:
        return self.population is not None


@dataclass(frozen=True)
class ApplicationConfig:
    """The application above the storage: `users` who think `think_time_s`, then run a
    transaction of `cpu_s` host CPU time (on `cpus` CPUs) and `ios_per_transaction` host I/Os
    over its workloads, `parallel_ios` of them in flight at once."""

    name: str
    users: int
    think_time_s: float
    cpu_s: float
    cpus: int
    parallel_ios: int
    ios_per_transaction: float


@dataclass(frozen=True)
class LogConfig:
    """A database log: its commits, how it is striped, and its write path (`LogPath` from the
    system's front end). Its writes are also the model workload of the same name."""

    name: str
    pool: str
    commit_rate: float
    page_shares: tuple[tuple[int, float], ...]  # (pages, share of log writes)
    page_kib: float
    stripes: int
    links: int | None
    large_write_pages: int
    ios_per_commit: float
    path: LogPath
    path_basis: str


@dataclass(frozen=True)
class Hardware:
    """The storage system as configured: catalog entries chosen, counts given."""

    system: StorageSystem
    host_adapter: HostAdapterType
    processor: ProcessorOption
    host_ports: int
    da_pairs: int
    cache_gb: float
    ordered_destage: bool = True  # IWC (address-ordered sweeps), else least-recently-written

    @property
    def nvs_bytes(self) -> float:
        return cache.nvs_bytes(self.system, self.cache_gb)


@dataclass(frozen=True)
class ServiceLevelConfig:
    """What the planner sizes to: response-time targets (ms) and utilisation ceilings."""

    response_time_ms: float
    read_response_time_ms: float | None
    utilization: dict[str, float]  # per component kind

    @classmethod
    def of(cls, level: ServiceLevel) -> ServiceLevelConfig:
        """A scenario's service level, its utilisation ceilings by component kind."""
        return cls(
            response_time_ms=level.response_time_ms,
            read_response_time_ms=level.read_response_time_ms,
            utilization={kind: float(getattr(level.utilization, kind)) for kind in COMPONENT_KINDS},
        )


@dataclass(frozen=True)
class Configuration:
    """One configuration, fully resolved (module docstring). `inputs` is the same content as
    the report shows it: the model copies it into the Prediction unchanged."""

    name: str
    hardware: Hardware
    ranks: tuple[Rank, ...]
    pools: tuple[PoolConfig, ...]
    workloads: tuple[WorkloadConfig, ...]
    service_level: ServiceLevelConfig
    curve_points: int
    inputs: Inputs
    logs: tuple[LogConfig, ...] = ()
    application: ApplicationConfig | None = None

    @property
    def has_closed(self) -> bool:
        return any(w.is_closed for w in self.workloads)

    def pool(self, name: str) -> PoolConfig:
        return next(p for p in self.pools if p.name == name)


# --------------------------------------------------------------------------- resolution


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
) -> Configuration:
    """One scenario (already validated) as a `Configuration`.

    hit_ratios: per workload, (read hit ratio, basis) replacing the scenario's (a projection to
    another cache size). base_dir: the scenario file's folder, where heat-map paths start;
    a heat map outside it is refused unless `allow_outside_heatmaps`.
    """
    catalog = catalog or load_catalog()
    scenario = scenario.corner("central")
    cfg = scenario.system
    system = catalog.systems[cfg.model]
    if cfg.front_end_latency_us is not None:  # the scenario's (measured, calibrated; a
        # range is at its middle here)
        system = system.model_copy(
            update={
                "front_end_latency_us": cfg.front_end_latency_us,
                "provenance": {
                    **system.provenance,
                    "front_end_latency_us": Provenance(
                        basis="the scenario's system.front_end_latency_us (measured or "
                        "calibrated), in place of the catalog's"
                    ),
                },
            }
        )
    hardware = Hardware(
        system=system,
        host_adapter=system.host_adapter(cfg.host_adapter),
        processor=system.processor_option(cfg.processor_ways),
        host_ports=cfg.host_ports,
        da_pairs=cfg.da_pairs,
        cache_gb=cfg.cache_gb,
        ordered_destage=cfg.destage_order == "ordered",
    )
    added = [g.added for pool in scenario.pools for g in pool.ranks for _ in range(g.count)]
    ranks = tuple(
        Rank(
            index=r.index,
            pool=r.pool,
            drive=catalog.installed_drive(system.name, r.drive),
            raid=catalog.raid_formats[r.raid],
            da_pair=r.da_pair,
            server=r.server,
            added=flag,
        )
        for r, flag in zip(expand_ranks(scenario), added, strict=True)
    )
    pools = tuple(
        _pool(
            p.name,
            p.easy_tier.mode,
            p.easy_tier.utilization_target,
            ranks,
            p.host_tiering,
            p.easy_tier.generation_on(system),
        )
        for p in scenario.pools
    )
    heat = {} if _heat is None else _heat
    given = scenario.model_workloads  # the logs' writes after the scenario's workloads
    workloads = tuple(
        _workload(
            w,
            None if hit_ratios is None or i >= len(hit_ratios) else hit_ratios[i],
            base_dir,
            heat,
            allow_outside_heatmaps,
            scenario.application,
        )
        for i, w in enumerate(given)
    )
    service_level = ServiceLevelConfig.of(scenario.service_level)
    inputs = Inputs(
        system=_system_input(hardware),
        ranks=_rank_groups(ranks),
        pools=tuple(_pool_input(p, ranks) for p in pools),
        workloads=tuple(_workload_input(w, s) for w, s in zip(workloads, given, strict=True)),
        service_level=ServiceLevelInput(
            service_level.response_time_ms,
            service_level.read_response_time_ms,
            dict(service_level.utilization),
        ),
        figures=_figures(hardware, ranks),
        defaults=tuple(defaults_used(scenario, system)),
        assumptions=(),
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
        given = _point(w.read_hit_ratio)
        projected = cache.project_read_hit_ratio(given, old, new)
        out.append(
            (
                projected,
                f"projected from {given:g} at {old:g} GB cache to {new:g} GB "
                f"(McNutt's hierarchical reuse model, theta {cache.HIERARCHICAL_REUSE_THETA:g})",
            )
        )
    return out


def _point(value: float | tuple[float, float]) -> float:
    """An input the model uses: a number (a range is resolved to one of its points first,
    `Scenario.corner`)."""
    if isinstance(value, tuple):
        raise ValueError("a range reached the model: resolve the scenario at a corner first")
    return value


def _pool(
    name: str,
    mode: str,
    target: float,
    ranks: Sequence[Rank],
    host_tiering: bool = False,
    generation: int = 2,
) -> PoolConfig:
    mine = [r for r in ranks if r.pool == name]
    tiers = tuple(t for t in TIERS if any(r.tier == t for r in mine))
    return PoolConfig(
        name=name,
        easy_tier=mode == "auto",
        utilization_target=target,
        tiers=tiers,
        tier_capacity_gb=tuple(sum(r.capacity_gb for r in mine if r.tier == t) for t in tiers),
        host_tiering=host_tiering,
        easy_tier_generation=generation,
    )


def _skew(
    workload: Workload,
    base_dir: Path | None,
    heat: HeatMaps,
    allow_outside: bool,
) -> tuple[SkewCurve, SkewCurve | None, str]:
    """The small-I/O curve, the MB curve (None: derived by placement) and a description."""
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
    curve, mb = described_skew(skew.points, level, seq)
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
) -> WorkloadConfig:
    hit_ratio, basis = hit if hit is not None else (_point(w.read_hit_ratio), "as given")
    small, mb, description = _skew(w, base_dir, heat, allow_outside)
    population = w.queue_depth if w.queue_depth is not None else w.users
    kind = "queue_depth" if w.queue_depth is not None else "users" if w.users is not None else None
    if w.ios_per_transaction is not None and app is not None:
        population, kind = app.users, "application"
    return WorkloadConfig(
        name=w.name,
        pool=w.pool,
        iops=None if w.is_closed or w.iops is None else _point(w.iops),
        population=population,
        population_kind=kind,
        think_time_s=w.think_time_ms * MS,
        mix=IoMix.of(
            read_fraction=_point(w.read_fraction),
            read_hit_ratio=hit_ratio,
            read_sequential_fraction=_point(w.read_sequential_fraction),
            write_sequential_fraction=_point(w.write_sequential_fraction),
            read_size_kib=_point(w.read_size_kib),
            write_size_kib=_point(w.write_size_kib),
            destage_ratio=_point(w.destage_ratio),
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
            None if w.pin.io_share is None else _point(w.pin.io_share),
        ),
    )


# --------------------------------------------------------------------------- inputs as shown


def _system_input(h: Hardware) -> SystemInput:
    s = h.system
    return SystemInput(
        model=s.name,
        label=f"{s.family} {s.machine_type}-{s.model}",
        processor=s.processor,
        servers=s.servers,
        processor_ways=h.processor.ways,
        clock_ghz=h.processor.clock_ghz,
        cache_gb=h.cache_gb,
        nvs_gb=h.nvs_bytes / GB,
        host_ports=h.host_ports,
        host_adapter=h.host_adapter.name,
        port_gbps=h.host_adapter.port_gbps,
        da_pairs=h.da_pairs,
        device_adapter=s.device_adapter.name,
    )


def _drive_label(d: Drive, system: str) -> str:
    size = f"{d.capacity_gb / 1000:g} TB" if d.capacity_gb >= 1000 else f"{d.capacity_gb:g} GB"
    speed = "SSD" if d.kind == "ssd" else f"{d.rpm / 1000:g}K RPM"
    pack = d.packaging.get(system)
    where = f", {pack.form_factor_in:g}-inch {pack.interface}" if pack is not None else ""
    return f"{size} {speed}{where}"


def _rank_groups(ranks: Sequence[Rank]) -> tuple[RankGroupInput, ...]:
    groups: dict[tuple[str, str, str, bool], list[Rank]] = {}
    for r in ranks:
        groups.setdefault((r.pool, r.drive.name, r.raid.name, r.added), []).append(r)
    out = []
    for (pool, _, _, added), members in groups.items():
        first = members[0]
        system = next(iter(first.drive.packaging), "")
        out.append(
            RankGroupInput(
                pool=pool,
                tier=first.tier,
                drive=first.drive.name,
                drive_label=_drive_label(first.drive, system),
                raid=first.raid.name,
                count=len(members),
                ranks_per_da_pair=tuple(sorted(Counter(r.da_pair for r in members).items())),
                ranks_per_server=tuple(sorted(Counter(r.server for r in members).items())),
                capacity_gb=sum(r.capacity_gb for r in members),
                drives=sum(r.raid.drives for r in members),
                added=added,
            )
        )
    return tuple(out)


def _pool_input(p: PoolConfig, ranks: Sequence[Rank]) -> PoolInput:
    ssd = Counter(r.server for r in ranks if r.pool == p.name and r.tier == "ssd")
    return PoolInput(
        name=p.name,
        easy_tier="auto" if p.easy_tier else "off",
        utilization_target=p.utilization_target,
        tiers=p.tiers,
        tier_capacity_gb=p.tier_capacity_gb,
        ssd_ranks_per_server=(ssd[0], ssd[1]) if ssd else (),
        easy_tier_generation=p.easy_tier_generation,
        host_tiering=p.host_tiering,
    )


def _workload_input(w: WorkloadConfig, given: Workload) -> WorkloadInput:
    return WorkloadInput(
        name=w.name,
        pool=w.pool,
        load=w.population_kind or "iops",
        iops=w.iops,
        population=w.population,
        think_time_ms=given.think_time_ms,
        read_fraction=_point(given.read_fraction),
        read_hit_ratio=w.read_hit_ratio,
        read_hit_ratio_basis=w.read_hit_ratio_basis,
        destage_ratio=_point(given.destage_ratio),
        read_size_kib=_point(given.read_size_kib),
        write_size_kib=_point(given.write_size_kib),
        read_sequential_fraction=_point(given.read_sequential_fraction),
        write_sequential_fraction=_point(given.write_sequential_fraction),
        capacity_gb=given.capacity_gb,
        skew=w.skew_description,
        pin_tier=w.pin_tier,
        population_basis=_population_basis(given),
        backend_kib=given.backend_kib,
        pin=_pin_text(given),
    )


def _pin_text(given: Workload) -> str:
    pin = given.pin
    if pin is None:
        return ""
    share = "its skew's share" if pin.io_share is None else f"{pin.io_share:.0%}"
    return f"{pin.capacity_gb:,.0f} GB on {pin.tier} ({share} of its back-end I/O)"


def _population_basis(given: Workload) -> str:
    if given.luns is not None:
        return given.luns.basis
    if given.ios_per_transaction is not None:
        return f"{given.ios_per_transaction:g} I/Os per transaction of the application"
    return ""


def _figures(h: Hardware, ranks: Sequence[Rank]) -> tuple[Figure, ...]:
    """Every catalog figure this configuration uses, with its provenance: the system's (only
    the chosen host adapter and processor option), each installed drive's and RAID format's."""
    out: list[Figure] = []
    system = h.system
    for key, value, provenance in iter_figures(system):
        if key.startswith("host_adapters[") and not key.startswith(
            f"host_adapters[{h.host_adapter.name}]"
        ):
            continue
        if key.startswith("processor_options[") and not key.startswith(
            f"processor_options[{h.processor.ways}-way]"
        ):
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append(Figure(system.name, key, float(value), provenance.text()))
    seen: set[str] = set()
    for r in ranks:
        for entry in (r.drive, r.raid):
            if entry.name in seen:
                continue
            seen.add(entry.name)
            for key, value, provenance in iter_figures(entry):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    out.append(Figure(entry.name, key, float(value), provenance.text()))
    return tuple(out)


# Why each default is what it is (a scenario that leaves the key out gets this value).
_WORKLOAD_DEFAULTS = {
    "destage_ratio": "no write folding assumed: every host write is destaged (conservative; "
    "a measured destage rate is usually lower, e.g. 0.573 per write for IBM's 'DB Open' "
    "workload, whose destages are 17.2% of all I/O at 30% writes)",
    "read_size_kib": "4 KiB, the small random I/O the catalog figures are quoted for",
    "write_size_kib": "4 KiB, the small random I/O the catalog figures are quoted for",
    "read_sequential_fraction": "no sequential reads",
    "write_sequential_fraction": "no sequential writes",
    "think_time_ms": "no think time: every user always has an I/O outstanding",
    "skew": "no skew: I/O in proportion to capacity",
}


_LOG_DEFAULTS = {
    "page_kib": "4 KiB, the Db2 log page",
    "stripes": "not striped: one log volume",
    "links": "each stripe on its own host port or channel",
    "striping_overhead_us": "the catalog system's log_striping_us: the striping layer's own time "
    "per striped write, derived from a published one-page measurement (+10% striped)",
    "large_write_pages": "128 pages, the largest log write in IBM's measurement of Db2 log "
    "writes on a DS8800 with 8 Gb FICON",
    "capacity_gb": "10 GB of active log data sets; small against a pool, so placement hardly "
    "depends on it",
}


_APPLICATION_DEFAULTS = {
    "think_time_ms": "no think time: each user starts its next transaction at once",
    "cpu_ms_per_transaction": "no host CPU time: the transactions wait for the storage only",
    "cpus": "one host CPU",
    "parallel_ios": "one I/O at a time: each waits for the one before",
}


def defaults_used(scenario: Scenario, system: StorageSystem) -> list[DefaultUsed]:
    """The inputs the scenario left out, the values used and why (`system`: its catalog entry,
    for the defaults that depend on the system model)."""
    out: list[DefaultUsed] = []
    app = scenario.application
    if app is not None:
        out.extend(
            DefaultUsed(f"application.{key}", f"{getattr(app, key):g}", why)
            for key, why in _APPLICATION_DEFAULTS.items()
            if key not in app.model_fields_set
        )
    given = scenario.system
    if "processor_ways" not in given.model_fields_set:
        out.append(DefaultUsed("system.processor_ways", f"{given.processor_ways}", "4-way"))
    if "host_adapter" not in given.model_fields_set:
        out.append(
            DefaultUsed(
                "system.host_adapter", "the model's default", "catalog default_host_adapter"
            )
        )
    for pool in scenario.pools:
        if pool.easy_tier.generation is None and pool.easy_tier.mode == "auto":
            shipped = system.easy_tier_generation
            out.append(
                DefaultUsed(
                    f"pools.{pool.name}.easy_tier.generation",
                    f"{shipped}",
                    f"the generation the {system.name} shipped with ("
                    + (
                        "R5.1: two tiers, placement by I/O density, no auto-rebalance)"
                        if shipped == 1
                        else "taken as R6.1: three tiers, load limits, auto-rebalance; not "
                        "sourced, see the catalog)"
                    ),
                )
            )
        if "easy_tier" not in pool.model_fields_set:
            out.append(
                DefaultUsed(
                    f"pools.{pool.name}.easy_tier",
                    "auto",
                    "Easy Tier is on by default on these systems",
                )
            )
        if (
            "utilization_target" not in pool.easy_tier.model_fields_set
            and pool.easy_tier.mode == "auto"
            and pool.easy_tier.generation_on(system) > 1
        ):
            out.append(
                DefaultUsed(
                    f"pools.{pool.name}.easy_tier.utilization_target",
                    f"{pool.easy_tier.utilization_target:g}",
                    "the load Easy Tier lets a tier's busiest drive or DA pair reach before it "
                    "demotes warm extents (not published: estimate)",
                )
            )
        for group in pool.ranks:
            if group.da_pair is None:
                balanced = scenario.system.rank_placement == "balanced"
                out.append(
                    DefaultUsed(
                        f"pools.{pool.name}.ranks.{group.drive} {group.raid}.da_pair",
                        "balanced" if balanced else "round-robin",
                        "each drive type's ranks dealt evenly over the DA pairs and servers "
                        "(system.rank_placement: balanced)"
                        if balanced
                        else "ranks dealt over the DA pairs in file order",
                    )
                )
                break
    for w in scenario.workloads:
        for key, basis in _WORKLOAD_DEFAULTS.items():
            if key == "think_time_ms" and w.users is None:
                continue
            if key not in w.model_fields_set:
                value = getattr(w, key)
                out.append(
                    DefaultUsed(
                        f"workloads.{w.name}.{key}",
                        "none" if value is None else f"{value:g}",
                        basis,
                    )
                )
    for log in scenario.logs:
        for key, basis in _LOG_DEFAULTS.items():
            if key not in log.model_fields_set:
                value = getattr(log, key)
                out.append(
                    DefaultUsed(
                        f"logs.{log.name}.{key}",
                        "none" if value is None else f"{value:g}",
                        basis,
                    )
                )
    level = scenario.service_level
    if "service_level" not in scenario.model_fields_set:
        out.append(
            DefaultUsed(
                "service_level",
                f"response time {level.response_time_ms:g} ms, utilisation "
                f"{level.utilization.rank:.0%} of every component",
                "planning defaults (docs/model.md): a common OLTP service level and the "
                "report's warning level",
            )
        )
    return out
