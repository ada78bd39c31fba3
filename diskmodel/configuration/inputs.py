"""The inputs as the report shows them (`prediction.Inputs`): the system, the rank groups, the
pools and workloads as the model used them, the service level, every catalog figure used with
its provenance, and the defaults the scenario left to diskmodel (`defaults.defaults_used`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from diskmodel.catalog import Drive, iter_figures
from diskmodel.configuration.defaults import defaults_used
from diskmodel.configuration.records import (
    Hardware,
    PoolConfig,
    Rank,
    ServiceLevelConfig,
    WorkloadConfig,
)
from diskmodel.prediction import (
    Figure,
    Inputs,
    PoolInput,
    RankGroupInput,
    ServiceLevelInput,
    SystemInput,
    WorkloadInput,
)
from diskmodel.scenario import Scenario, Workload
from diskmodel.units import GB


def shown_inputs(
    scenario: Scenario,
    hardware: Hardware,
    ranks: Sequence[Rank],
    pools: Sequence[PoolConfig],
    workloads: Sequence[WorkloadConfig],
    service_level: ServiceLevelConfig,
    shown: bool = True,
) -> Inputs:
    """What the configuration resolved from `scenario` used, as the report shows it (the
    workloads beside the scenario's model workloads they came from). Unless `shown` (a
    configuration only solved, never reported: a sizing candidate, a band's end, a catalog
    estimate, a calibration evaluation), only the system and the service level: the ranks,
    pools, workloads, catalog figures and defaults as the report lists them are left empty
    (they were a tenth of a sizing candidate's time, read by nothing but the report)."""
    given = scenario.model_workloads
    return Inputs(
        system=system_input(hardware),
        ranks=_rank_groups(ranks) if shown else (),
        pools=tuple(_pool_input(p, ranks) for p in pools) if shown else (),
        workloads=workload_inputs(workloads, given) if shown else (),
        service_level=ServiceLevelInput(
            service_level.response_time_ms,
            service_level.read_response_time_ms,
            dict(service_level.utilization),
        ),
        figures=_figures(hardware, ranks) if shown else (),
        defaults=tuple(defaults_used(scenario, hardware.system)) if shown else (),
        assumptions=(),
    )


def model_value(value: float | tuple[float, float]) -> float:
    """An input the model uses: a number (a range is resolved to one of its points first,
    `Scenario.corner`)."""
    if isinstance(value, tuple):
        raise ValueError("a range reached the model: resolve the scenario at a corner first")
    return value


def workload_inputs(
    workloads: Sequence[WorkloadConfig], given: Sequence[Workload]
) -> tuple[WorkloadInput, ...]:
    """The workloads as the report shows them, each beside the scenario's model workload it
    came from."""
    return tuple(_workload_input(w, s) for w, s in zip(workloads, given, strict=True))


def system_input(h: Hardware) -> SystemInput:
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
        read_fraction=model_value(given.read_fraction),
        read_hit_ratio=w.read_hit_ratio,
        read_hit_ratio_basis=w.read_hit_ratio_basis,
        destage_ratio=model_value(given.destage_ratio),
        read_size_kib=model_value(given.read_size_kib),
        write_size_kib=model_value(given.write_size_kib),
        read_sequential_fraction=model_value(given.read_sequential_fraction),
        write_sequential_fraction=model_value(given.write_sequential_fraction),
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
