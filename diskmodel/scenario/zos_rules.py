"""The z/OS checks that span the system and the workloads: LCUs named but not defined, data that
does not fit its volumes, more addresses than an LCU has, closed workloads beside z/OS ones,
z/OS workloads without FICON, FICON ports that leave none for open systems.

Each problem is one line starting with the key path it is about (`workloads[1].zos.lcus[0]:
...`), as `hardware.hardware_problems` yields them, so `diskmodel check` and `diskmodel run`
name the file and the line alike. `configuration.zos.resolve_zos` asks the same rules of a
scenario that is not validated again (a corner of its ranges, a calibrated copy).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from diskmodel.catalog import Catalog
from diskmodel.scenario.storage import LCU_ADDRESSES
from diskmodel.scenario.values import clip, listed
from diskmodel.units import GB

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Scenario


def zos_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Every way the z/OS workloads do not fit the system's FICON attachment and LCUs."""
    system = scenario.system
    located = scenario.located_workloads()
    zos = [(where, w) for where, w in located if w.zos is not None]
    if system.ficon is None:
        if zos:
            where, w = zos[0]
            yield (
                f"{where}.zos: workload '{clip(w.name)}' is a z/OS workload, whose volumes "
                "are reached over FICON channels; give system.ficon (channel, channels, zhpf) "
                "and system.lcus"
            )
        return
    if zos:
        yield from _closed_problems(scenario)
    names = [lcu.name for lcu in system.lcus]
    volumes = dict.fromkeys(names, 0)
    for where, w in zos:
        assert w.zos is not None
        unknown = [(j, n) for j, n in enumerate(w.zos.lcus) if n not in volumes]
        for j, named in unknown:
            yield (
                f"{where}.zos.lcus[{j}]: unknown LCU '{clip(named)}' "
                f"(system.lcus: {listed(names) if names else 'none'})"
            )
        if not unknown:
            for named, count in zip(
                w.zos.lcus, spread(w.zos.volumes, len(w.zos.lcus)), strict=True
            ):
                volumes[named] += count
        model = catalog.volume_models.get(w.zos.volume_model)
        if model is None:
            continue  # reported by the field's own check
        held = w.zos.volumes * model.data_bytes(w.zos.record_bytes) / GB
        if w.capacity_gb > held * (1 + 1e-9):
            yield (
                f"{where}.capacity_gb: {w.capacity_gb:,.0f} GB on {w.zos.volumes:,} "
                f"{model.name} volumes that hold {held:,.0f} GB in records of "
                f"{w.zos.record_bytes:,} bytes; give more volumes or a larger volume_model"
            )
    for k, lcu in enumerate(system.lcus):
        used = volumes[lcu.name] + lcu.aliases
        if used > LCU_ADDRESSES:
            yield (
                f"system.lcus[{k}]: LCU '{clip(lcu.name)}' has {volumes[lcu.name]} base volumes "
                f"+ {lcu.aliases} aliases = {used} addresses; an LCU has {LCU_ADDRESSES}"
            )
    ports = system.ficon.host_ports or system.host_ports
    open_systems = [(where, w) for where, w in located if w.zos is None]
    if open_systems and ports >= system.host_ports:
        where, w = open_systems[0]
        yield (
            f"system.ficon.host_ports: all {system.host_ports} host ports are FICON, and "
            f"{where} ('{clip(w.name)}') is an open-systems workload (FCP); give "
            "system.ficon.host_ports fewer FICON ports"
        )


def _closed_problems(scenario: Scenario) -> Iterable[str]:
    """A scenario with z/OS workloads has open workloads only: the device queues (IOSQ) are
    solved at the open solution's rates, and a closed solution's responses would leave them
    out."""
    closed = [(i, w) for i, w in enumerate(scenario.workloads) if w.is_closed]
    if closed:
        i, w = closed[0]
        yield (
            f"workloads[{i}]: workload '{clip(w.name)}' is closed (queue_depth, users or "
            "ios_per_transaction) beside z/OS workloads; a scenario with z/OS workloads has "
            "open workloads only (given by 'iops'), as its device queues are solved at the "
            "open rates"
        )
    elif scenario.application is not None:
        yield (
            "application: a scenario with z/OS workloads has open workloads only (given by "
            "'iops'); its application is not solved with the z/OS device queues"
        )


def spread(volumes: int, lcus: int) -> list[int]:
    """`volumes` dealt over `lcus` as evenly as whole volumes allow, the first ones first."""
    base, extra = divmod(volumes, lcus)
    return [base + (1 if i < extra else 0) for i in range(lcus)]
