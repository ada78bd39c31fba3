"""The z/OS attachment as configured: FICON channels and ports, LCUs with their aliases, and
each z/OS workload's volumes (`FiconConfig`, `LcuConfig`, `ZosConfig`), resolved from a
scenario's `system.ficon`, `system.lcus` and workloads' `zos` (`resolve_zos`). Checks that span
the system and the workloads (an LCU named but not defined, more addresses than an LCU has, data
that does not fit its volumes) end in one `InputError` naming the keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diskmodel.catalog import Catalog, FiconChannel, VolumeModel
from diskmodel.errors import InputError
from diskmodel.scenario import Scenario
from diskmodel.scenario.storage import LCU_ADDRESSES
from diskmodel.scenario.workloads import Workload
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
    if system.ficon is None:
        raise InputError(
            f"workloads.{zos[0].name}.zos: z/OS volumes are reached over FICON channels; "
            "give system.ficon (channel, channels, host_ports, zhpf) and system.lcus"
        )
    closed = [w for w in workloads if w.is_closed]
    if zos and (closed or scenario.application is not None):
        # The device queues (IOSQ) are solved at the open solution's rates; the closed
        # solution's responses would leave them out.
        what = f"workloads.{closed[0].name}" if closed else "application"
        raise InputError(
            f"{what}: a scenario with z/OS workloads has open workloads only (given by 'iops'); "
            "its closed workloads and application are not solved with the z/OS device queues"
        )
    names = [lcu.name for lcu in system.lcus]
    volumes = dict.fromkeys(names, 0)
    for w in zos:
        assert w.zos is not None
        for named in w.zos.lcus:
            if named not in volumes:
                raise InputError(
                    f"workloads.{w.name}.zos.lcus: unknown LCU {named!r} (system.lcus: "
                    f"{', '.join(names) or 'none'})"
                )
        spread = _spread(w.zos.volumes, len(w.zos.lcus))
        for named, count in zip(w.zos.lcus, spread, strict=True):
            volumes[named] += count
        model = catalog.volume_models[w.zos.volume_model]
        held = w.zos.volumes * model.data_bytes(w.zos.record_bytes) / GB
        if w.capacity_gb > held * (1 + 1e-9):
            raise InputError(
                f"workloads.{w.name}.capacity_gb: {w.capacity_gb:,.0f} GB on {w.zos.volumes:,} "
                f"{model.name} volumes that hold {held:,.0f} GB in records of "
                f"{w.zos.record_bytes:,} bytes; give more volumes or a larger volume_model"
            )
    lcus = []
    for lcu in system.lcus:
        used = volumes[lcu.name] + lcu.aliases
        if used > LCU_ADDRESSES:
            raise InputError(
                f"system.lcus.{lcu.name}: {volumes[lcu.name]} base volumes + {lcu.aliases} "
                f"aliases = {used} addresses; an LCU has {LCU_ADDRESSES}"
            )
        lcus.append(LcuConfig(lcu.name, lcu.pav, lcu.aliases, volumes[lcu.name]))
    ports = system.ficon.host_ports or system.host_ports
    open_workloads = [w for w in workloads if w.zos is None]
    if open_workloads and ports >= system.host_ports:
        raise InputError(
            f"system.ficon.host_ports: all {system.host_ports} host ports are FICON, and "
            f"workloads.{open_workloads[0].name} is an open-systems workload (FCP); configure "
            "fewer FICON ports"
        )
    channel = catalog.ficon_channels[system.ficon.channel]
    if system.ficon.pend_light_us is not None:
        channel = channel.model_copy(update={"pend_light_us": system.ficon.pend_light_us})
    ficon = FiconConfig(
        channel=channel,
        channels=system.ficon.channels,
        ports=ports,
        zhpf=system.ficon.zhpf,
        lcus=tuple(lcus),
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


def _spread(volumes: int, lcus: int) -> list[int]:
    """`volumes` dealt over `lcus` as evenly as whole volumes allow, the first ones first."""
    base, extra = divmod(volumes, lcus)
    return [base + (1 if i < extra else 0) for i in range(lcus)]


def volumes_in(zos: ZosConfig) -> list[int]:
    """A workload's volumes in each of its LCUs, in the order it names them."""
    return _spread(zos.volumes, len(zos.lcus))
