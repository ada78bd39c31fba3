"""Metro Mirror in the primary's network (`model.network_build` asks here): the replication
links as stations, the replicated writes' flows through them, and the fixed time each
replicated write waits beyond them (the light in the fibre and the secondary's write).

The links are host adapter ports (PPRC runs on them, in initiator mode), so they are stations
of the host adapter kind: one M/G/1 station per link taking an even share of the replicated
writes, as the host ports take the host I/O, under the host adapter utilisation ceiling. A
replicated write's time there is host-visible (it waits for it) but is not part of the front
end's fixed time (`front_end_latency_us` is the primary's own light-load time).

The secondary is solved once per configuration, at the replicated writes' planned rates
(`model.secondary`); its write response is held at that value over the curve.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from diskmodel.components.replication import (
    coordination_added_s,
    link_service_s,
    propagation_s,
)
from diskmodel.configuration import Configuration
from diskmodel.configuration.copy_services import CopyServicesConfig
from diskmodel.model.secondary import Build, SecondaryWrites, secondary_writes

LINK_KIND = "host_adapter"
"""The component kind of a replication link: a host adapter port."""


@dataclass(frozen=True)
class MirrorState:
    """Metro Mirror in one configuration's network: the link stations' indices, and per
    replicated workload the time in flight and the secondary's write response (seconds),
    with the secondary as solved."""

    links: tuple[int, ...]
    propagation_s: float
    secondary_write_s: Mapping[int, float]
    secondary: SecondaryWrites | None

    def delay_s(self, w: int) -> float:
        """The fixed time a replicated write of workload `w` waits beyond the links."""
        return self.propagation_s + self.secondary_write_s[w]


def copy_services(config: Configuration) -> CopyServicesConfig | None:
    """The configuration's copy services (None without)."""
    cs = getattr(config, "copy_services", None)
    return cs if isinstance(cs, CopyServicesConfig) else None


def metro_links(config: Configuration) -> int:
    """How many link stations the network needs: the links where Metro Mirror runs, else 0
    (Global Mirror's writes are asynchronous: its link budget is `configuration.copy_services
    .global_mirror_budget`, over its intervals)."""
    cs = copy_services(config)
    if cs is None or not cs.metro or cs.links is None:
        return 0
    return cs.links.count


def link_station_names(config: Configuration) -> list[str]:
    """`replication link 0 (8 Gb/s, 40 km)`, ..."""
    cs = copy_services(config)
    if cs is None or cs.links is None:
        return []
    links = cs.links
    return [
        f"replication link {i} ({links.speed_gbps} Gb/s, {links.distance_km:g} km)"
        for i in range(metro_links(config))
    ]


def link_service(config: Configuration, size_bytes: float) -> float:
    """One replicated write of `size_bytes` on one link (seconds)."""
    cs = copy_services(config)
    assert cs is not None
    assert cs.links is not None
    return link_service_s(size_bytes, cs.links.per_op_us, cs.links.payload_mb_s)


def group_hold_s(config: Configuration, w: int) -> float:
    """The mean time Global Mirror's consistency groups hold a write of workload `w` (0 when
    `w` is not under Global Mirror): the coordination time once a cycle, half of it for a
    write that arrives then (`components.replication.coordination_added_s`)."""
    cs = copy_services(config)
    if cs is None or cs.global_mirror is None or w not in cs.global_mirror.workloads:
        return 0.0
    gm = cs.global_mirror
    return coordination_added_s(gm.coordination_s, gm.group_interval_s + gm.formation_s)


def mirror_state(config: Configuration, links: tuple[int, ...], build: Build) -> MirrorState | None:
    """Metro Mirror's state in `config`'s network (module docstring); None without it."""
    cs = copy_services(config)
    if cs is None or not cs.metro or cs.links is None or cs.secondary is None:
        return None
    secondary = cs.secondary
    solved = secondary_writes(secondary, [w.iops or 0.0 for w in secondary.workloads], build)
    writes = {w: solved.write_s[cs.secondary_workload[w]] for w in cs.metro}
    flight = propagation_s(cs.links.distance_km, cs.round_trips, cs.fibre_us_per_km)
    return MirrorState(links, flight, writes, solved)
