"""The z/OS attachment as configured: FICON channels and ports, LCUs with their aliases, and
each z/OS workload's volumes (`FiconConfig`, `LcuConfig`, `ZosConfig`), resolved from a
scenario's `system.ficon`, `system.lcus` and workloads' `zos` (`resolve_zos`). The checks that
span the system and the workloads (an LCU named but not defined, more addresses than an LCU has,
data that does not fit its volumes) are the scenario's (`scenario.zos_rules`), so `diskmodel
check` reports them with their file and line; a scenario not validated again is held to them
here, its first problem one `InputError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diskmodel.catalog import Catalog, FiconChannel, VolumeModel
from diskmodel.errors import InputError
from diskmodel.scenario import Scenario
from diskmodel.scenario.workloads import Workload
from diskmodel.scenario.zos_rules import spread, zos_problems
from diskmodel.units import GB, US


@dataclass(frozen=True)
class LcuConfig:
    """One LCU: its PAV mode, alias addresses and the base volumes the workloads put in it."""

    name: str
    pav: str  # none | static | hyperpav
    aliases: int
    volumes: int

    def servers_per_volume(self) -> tuple[tuple[float, int], ...]:
        """Static PAV (and none): (share of the LCU's volumes, I/Os one such volume runs at
        once). The aliases are dealt out evenly: every volume has aliases // volumes of them
        and the first aliases % volumes one more (32 aliases over 64 volumes: half the volumes
        run 2 I/Os at once, half 1). Without PAV every volume runs 1."""
        if self.pav != "static" or self.volumes <= 0:
            return ((1.0, 1),)
        each, extra = divmod(self.aliases, self.volumes)
        groups = [((self.volumes - extra) / self.volumes, 1 + each)]
        if extra:
            groups.append((extra / self.volumes, 2 + each))
        return tuple(groups)

    @property
    def pooled_servers(self) -> int:
        """HyperPAV: I/Os the LCU runs at once, its volumes' bases and the alias pool."""
        return self.volumes + self.aliases


@dataclass(frozen=True)
class FiconConfig:
    """The host's FICON channels to the system and the system's FICON ports."""

    channel: FiconChannel
    channels: int
    ports: int
    zhpf: bool
    lcus: tuple[LcuConfig, ...]

    @property
    def per_io_s(self) -> float:
        """The channel's work for one I/O in the mode used (zHPF or command mode)."""
        return self.channel.per_io_us(self.zhpf) * US

    @property
    def pend_light_s(self) -> float:
        """The light-load fixed time RMF counts as PEND (start and initial command response)."""
        return self.channel.pend_light_us * US


@dataclass(frozen=True)
class ZosConfig:
    """A z/OS workload's devices: `volumes` of `volume_model`, evenly over the LCUs `lcus`
    (indices into `FiconConfig.lcus`)."""

    lcus: tuple[int, ...]
    volumes: int
    volume_model: VolumeModel
    record_bytes: int = 4096

    @property
    def capacity_gb(self) -> float:
        """What its volumes hold in records of `record_bytes`, GB (decimal)."""
        return self.volumes * self.volume_model.data_bytes(self.record_bytes) / GB


def resolve_zos(
    scenario: Scenario, catalog: Catalog, workloads: Sequence[Workload]
) -> tuple[FiconConfig | None, tuple[ZosConfig | None, ...]]:
    """The FICON attachment and each of `workloads`' z/OS devices (None for open systems)."""
    system = scenario.system
    zos = [w for w in workloads if w.zos is not None]
    if not zos and system.ficon is None:
        return None, tuple(None for _ in workloads)
    # A scenario validated against the catalog has passed these rules already; a copy not
    # validated again (a corner of its ranges, a calibrated copy) is held to the same ones.
    problem = next(iter(zos_problems(scenario, catalog)), None)
    if problem is not None:
        raise InputError(problem)
    assert system.ficon is not None  # zos_problems: z/OS workloads need it
    names = [lcu.name for lcu in system.lcus]
    volumes = dict.fromkeys(names, 0)
    for w in zos:
        assert w.zos is not None
        for named, count in zip(w.zos.lcus, spread(w.zos.volumes, len(w.zos.lcus)), strict=True):
            volumes[named] += count
    lcus = tuple(
        LcuConfig(lcu.name, lcu.pav, lcu.aliases, volumes[lcu.name]) for lcu in system.lcus
    )
    ports = system.ficon.host_ports or system.host_ports
    channel = catalog.ficon_channels[system.ficon.channel]
    if system.ficon.pend_light_us is not None:
        channel = channel.model_copy(update={"pend_light_us": system.ficon.pend_light_us})
    ficon = FiconConfig(
        channel=channel,
        channels=system.ficon.channels,
        ports=ports,
        zhpf=system.ficon.zhpf,
        lcus=lcus,
    )
    out: list[ZosConfig | None] = []
    for w in workloads:
        if w.zos is None:
            out.append(None)
            continue
        out.append(
            ZosConfig(
                lcus=tuple(names.index(n) for n in w.zos.lcus),
                volumes=w.zos.volumes,
                volume_model=catalog.volume_models[w.zos.volume_model],
                record_bytes=w.zos.record_bytes,
            )
        )
    return ficon, tuple(out)


def volumes_in(zos: ZosConfig) -> list[int]:
    """A workload's volumes in each of its LCUs, in the order it names them."""
    return spread(zos.volumes, len(zos.lcus))
