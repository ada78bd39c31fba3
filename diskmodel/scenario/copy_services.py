"""Copy services in a scenario (the `copy_services` section): a secondary system with its own
pools and ranks, the replication links between the two, and which workloads Metro Mirror,
Global Mirror and FlashCopy cover.

The secondary is described as the primary's storage is (`system`, `pools`); it receives the
replicated workloads' writes, each in the secondary pool of the same name as its primary pool
(or the secondary's only pool), and is solved as a storage system of its own at that load
(`secondary_scenario`). Checks that span the section and the rest of the file (workloads that
exist, a secondary that holds the replicated data, one mirror per workload) are in
`copy_services_problems`; each message starts with its key path.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, Self

from pydantic import Field, model_validator

from diskmodel.catalog import Catalog
from diskmodel.scenario.hardware import hardware_problems
from diskmodel.scenario.storage import Pool, SystemConfig
from diskmodel.scenario.values import Model, Name, listed, problem
from diskmodel.scenario.workloads import HeatMapFile, Workload

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Scenario

LINK_SPEEDS_GBPS = (1, 2, 4, 8, 16)
"""Fibre Channel link speeds a replication link may run at, Gb/s."""
MAX_DISTANCE_KM = 300
"""Metro Mirror's supported distance (IBM DS8000 documentation, 'Metro Mirror': a maximum of
300 km); Global Mirror's links may run further (the `distance_km` of a link is then its
fibre route, and its WAN's rate `bandwidth_mb_s`)."""
MAX_LINK_KM = 20_000


class Secondary(Model):
    """The secondary (recovery-site) storage system: catalog model, configuration and pools,
    as the primary's `system` and `pools` are written."""

    system: SystemConfig = Field(description="the secondary storage system and its configuration")
    pools: list[Pool] = Field(
        min_length=1,
        max_length=64,
        description="its extent pools; a replicated workload's writes land in the pool of the "
        "same name as its primary pool, or in the only pool",
    )


class Links(Model):
    """The replication links (PPRC paths) between the primary and the secondary."""

    count: int = Field(gt=0, le=128, description="links (Fibre Channel port pairs) in use")
    speed_gbps: Literal[1, 2, 4, 8, 16] = Field(
        8, description="Fibre Channel speed of each link, Gb/s: 1, 2, 4, 8 or 16"
    )
    distance_km: float = Field(
        ge=0, le=MAX_LINK_KM, description="fibre route length between the sites, km"
    )
    bandwidth_mb_s: float | None = Field(
        None,
        gt=0,
        le=10_000,
        description="payload rate of each link where a slower network than the ports carries it "
        "(a WAN behind channel extenders), MB/s; default: the Fibre Channel speed's payload rate "
        "times the usable share",
    )


class MetroMirror(Model):
    """Synchronous replication: each replicated write waits for the secondary."""

    workloads: list[Name] | None = Field(
        None,
        max_length=64,
        description="the workloads replicated; default: every workload not under global_mirror",
    )
    distances_km: list[float] = Field(
        [],
        max_length=64,
        description="distances to show the write response time at (a sweep), km; the links' "
        "distance_km is the baseline's",
    )

    @model_validator(mode="after")
    def _distances(self) -> Self:
        for d in self.distances_km:
            if not 0 <= d <= MAX_DISTANCE_KM:
                raise problem(
                    f"distances_km: {d:g} km is outside 0 to {MAX_DISTANCE_KM} km, Metro "
                    "Mirror's supported distance (use global_mirror beyond it)"
                )
        return self


class GlobalMirror(Model):
    """Asynchronous replication with consistency groups."""

    workloads: list[Name] | None = Field(
        None,
        max_length=64,
        description="the workloads replicated; default: every workload not under metro_mirror",
    )
    group_interval_s: float = Field(
        0,
        ge=0,
        le=64_800,
        description="consistency group interval, s (0: groups formed continuously; at most "
        "18 hours)",
    )
    measured: HeatMapFile | None = Field(
        None,
        description="measured intervals (the CSV `diskmodel import` reads) whose writes the "
        "links must carry, one scope per workload name, relative to this file's folder; "
        "default: the planned load as one interval",
    )
    rpo_target_s: float | None = Field(
        None, gt=0, le=86_400, description="recovery point to warn beyond, s"
    )


class FlashCopy(Model):
    """A point-in-time copy of one workload's volumes onto target volumes."""

    workload: Name = Field(description="the source workload")
    mode: Literal["nocopy", "copy"] = Field(
        description="nocopy: a track is copied when first written after the copy (copy-on-"
        "write); copy: the whole source is also copied in the background"
    )
    target_pool: Name | None = Field(
        None,
        description="the pool holding the target volumes; default and, for now, only: the "
        "source's pool",
    )
    window_hours: float = Field(
        gt=0,
        le=8760,
        description="how long after the copy is taken the load is judged (the backup window), "
        "hours: the share of writes that are first to their track falls as it grows",
    )
    first_write_fraction: float | None = Field(
        None,
        ge=0,
        le=1,
        description="share of destages that copy a track; default: from the window, the "
        "workload's destage rate, capacity and skew",
    )
    copy_hours: float | None = Field(
        None,
        gt=0,
        le=8760,
        description="copy mode: hours the background copy of the whole source takes",
    )

    @model_validator(mode="after")
    def _copy_time(self) -> Self:
        if self.mode == "copy" and self.copy_hours is None:
            raise problem("copy_hours: mode copy needs the hours the background copy takes")
        if self.mode == "nocopy" and self.copy_hours is not None:
            raise problem("copy_hours: only mode copy copies in the background; drop it")
        return self


class CopyServices(Model):
    """The copy services of a scenario."""

    secondary: Secondary | None = Field(
        None, description="the secondary system (needed by metro_mirror and global_mirror)"
    )
    links: Links | None = Field(
        None, description="the replication links (needed by metro_mirror and global_mirror)"
    )
    metro_mirror: MetroMirror | None = Field(None, description="synchronous replication")
    global_mirror: GlobalMirror | None = Field(None, description="asynchronous replication")
    flashcopy: list[FlashCopy] = Field(
        [], max_length=64, description="point-in-time copies, one per source workload"
    )

    @model_validator(mode="after")
    def _mirror_needs_secondary(self) -> Self:
        mirrors = [m for m in ("metro_mirror", "global_mirror") if getattr(self, m) is not None]
        if mirrors and self.secondary is None:
            raise problem(f"secondary: {' and '.join(mirrors)} needs the secondary system")
        if mirrors and self.links is None:
            raise problem(f"links: {' and '.join(mirrors)} needs the replication links")
        if (
            self.metro_mirror is not None
            and self.links is not None
            and self.links.distance_km > MAX_DISTANCE_KM
        ):
            raise problem(
                f"links.distance_km: {self.links.distance_km:g} km is beyond Metro Mirror's "
                f"{MAX_DISTANCE_KM} km; use global_mirror at that distance"
            )
        return self

    def mirrored(self, workloads: Iterable[str]) -> dict[str, Literal["metro", "global"]]:
        """Each replicated workload's mirror: the names listed, or every workload the other
        mirror does not list."""
        names = list(workloads)
        out: dict[str, Literal["metro", "global"]] = {}
        mm, gm = self.metro_mirror, self.global_mirror
        gm_named = set(gm.workloads or []) if gm is not None else set()
        mm_named = set(mm.workloads or []) if mm is not None else set()
        if mm is not None:
            for n in mm.workloads if mm.workloads is not None else names:
                if mm.workloads is not None or n not in gm_named:
                    out[n] = "metro"
        if gm is not None:
            for n in gm.workloads if gm.workloads is not None else names:
                if gm.workloads is not None or n not in mm_named:
                    out.setdefault(n, "global")
        return out


def _unknown_workload(where: str, name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"{where}: no workload named '{name}'{hint} (workloads: {listed(names)})"


def copy_services_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Every way the copy services section does not fit the rest of the file or the
    hardware, one message each, starting with the key path."""
    cs = scenario.copy_services
    if cs is None:
        return
    workloads = {w.name: w for w in scenario.workloads}
    names = list(workloads)
    for key, mirror in (("metro_mirror", cs.metro_mirror), ("global_mirror", cs.global_mirror)):
        if mirror is not None and mirror.workloads is not None:
            for i, n in enumerate(mirror.workloads):
                if n not in workloads:
                    yield _unknown_workload(f"copy_services.{key}.workloads[{i}]", n, names)
            for n, count in Counter(mirror.workloads).items():
                if count > 1:
                    yield f"copy_services.{key}.workloads: '{n}' is listed {count} times"
    if cs.metro_mirror is not None and cs.global_mirror is not None:
        both = set(cs.metro_mirror.workloads or names) & set(cs.global_mirror.workloads or names)
        if cs.metro_mirror.workloads is not None and cs.global_mirror.workloads is not None:
            for n in sorted(both):
                yield (
                    f"copy_services.global_mirror.workloads: '{n}' is under metro_mirror too; "
                    "a volume is the primary of one mirror here"
                )
        elif cs.metro_mirror.workloads is None and cs.global_mirror.workloads is None:
            yield (
                "copy_services: metro_mirror and global_mirror both cover every workload; "
                "list the workloads of at least one of them"
            )
    mirrored = cs.mirrored(n for n in names)
    for n in mirrored:
        w = workloads.get(n)
        if w is not None and w.is_closed:
            yield (
                f"copy_services: workload '{n}' is closed (queue_depth, luns, users or "
                "ios_per_transaction); replication is modelled for workloads with a planned "
                "rate (iops)"
            )
    if cs.secondary is not None and mirrored:
        yield from _secondary_problems(scenario, catalog, mirrored)
    pools = [p.name for p in scenario.pools]
    for i, fc in enumerate(cs.flashcopy):
        where = f"copy_services.flashcopy[{i}]"
        w = workloads.get(fc.workload)
        if w is None:
            yield _unknown_workload(f"{where}.workload", fc.workload, names)
            continue
        if fc.target_pool is not None and fc.target_pool != w.pool:
            yield (
                f"{where}.target_pool: targets in another pool than the source's ('{w.pool}') "
                "are not modelled yet; leave target_pool out or give "
                f"'{w.pool}'" + ("" if fc.target_pool in pools else " (no such pool either)")
            )
        if w.is_closed:
            yield (
                f"{where}.workload: '{fc.workload}' is closed; FlashCopy is modelled for "
                "workloads with a planned rate (iops)"
            )
    for n, count in Counter(fc.workload for fc in cs.flashcopy).items():
        if count > 1:
            yield f"copy_services.flashcopy: '{n}' is the source of {count} copies; give one"


def _secondary_problems(
    scenario: Scenario, catalog: Catalog, mirrored: dict[str, Any]
) -> Iterable[str]:
    """The secondary's own hardware checks (as the primary's, under its key) and a pool for
    each replicated workload."""
    cs = scenario.copy_services
    assert cs is not None
    assert cs.secondary is not None
    secondary = cs.secondary
    pools = [p.name for p in secondary.pools]
    where = "copy_services.secondary"
    for w in scenario.workloads:
        if w.name in mirrored and len(pools) > 1 and w.pool not in pools:
            yield (
                f"{where}.pools: no pool named '{w.pool}' for workload '{w.name}''s writes; "
                f"name a secondary pool after its primary pool, or give one pool (pools: "
                f"{listed(pools)})"
            )
            return
    replica = secondary_scenario(scenario, mirrored)
    for message in hardware_problems(replica, catalog):
        if message.startswith("workloads"):
            # The secondary's workloads are the replicated writes: what they ask of it is a
            # matter of its pools.
            yield f"{where}.pools: the replicated writes: {message.split(': ', 1)[1]}"
        else:
            yield f"{where}.{message}"


def secondary_scenario(
    scenario: Scenario,
    mirrored: dict[str, Any] | None = None,
    write_rates: dict[str, float] | None = None,
) -> Scenario:
    """The secondary as a scenario of its own: its system and pools, and one write-only
    workload per replicated workload (its writes at `write_rates`, I/O per second, default
    its planned rate times its write share; its transfer, sequential share, destage ratio
    and capacity), in the secondary pool named after its primary pool or the only one.
    Not validated against the catalog again (the caller checks its hardware)."""
    cs = scenario.copy_services
    if cs is None or cs.secondary is None:
        raise ValueError("the scenario has no secondary system")
    if mirrored is None:
        mirrored = cs.mirrored(w.name for w in scenario.workloads)
    pools = {p.name for p in cs.secondary.pools}
    first = cs.secondary.pools[0].name
    replicated = []
    for w in scenario.workloads:
        if w.name not in mirrored:
            continue
        rate = (write_rates or {}).get(w.name)
        if rate is None:
            rate = central(w.iops or 1.0) * (1.0 - central(w.read_fraction))
        replicated.append(
            {
                "name": w.name,
                "pool": w.pool if w.pool in pools else first,
                "iops": max(rate, 1e-6),
                "read_fraction": 0.0,
                "read_hit_ratio": 0.0,
                "write_size_kib": central(w.write_size_kib),
                "read_size_kib": central(w.write_size_kib),
                "write_sequential_fraction": central(w.write_sequential_fraction),
                "destage_ratio": central(w.destage_ratio),
                "capacity_gb": w.capacity_gb,
                "skew": w.skew,
            }
        )
    # The scenario's own class, so that this module need not import the one that imports it.
    return type(scenario).model_construct(
        schema_version=1,
        name=f"{scenario.name} (secondary)",
        system=cs.secondary.system,
        pools=list(cs.secondary.pools),
        workloads=[Workload.model_validate(w) for w in replicated],
    )


def central(value: Any) -> float:
    """A range's middle, or the value."""
    return 0.5 * (value[0] + value[1]) if isinstance(value, tuple) else float(value)
