"""The catalog's storage systems: servers, processor options, cache and NVS, host and device
adapters, the drives and RAID formats each offers, and the processors' costs per I/O.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from diskmodel.catalog.figures import Sourced


class ProcessorOption(Sourced):
    """One processor complex option: cores per server ("ways"), clock, cache sizes offered."""

    ways: int = Field(ge=1)
    clock_ghz: float = Field(gt=0)
    cache_gb_options: list[int] = Field(min_length=1)


class HostAdapterType(Sourced):
    """A host adapter card type: its ports, and the card (processor, PCIe link) they share.

    A port's service time for one I/O of b bytes is
    `per_io_overhead_us` + b / `port_bandwidth_mb_s`; the card's, shared by its
    `ports_per_adapter` ports, `card_per_io_us` + b / `card_bandwidth_mb_s`.
    """

    name: str
    port_gbps: float = Field(gt=0)
    ports_per_adapter: int = Field(ge=1)
    port_bandwidth_mb_s: float = Field(gt=0)
    per_io_overhead_us: float = Field(gt=0)
    card_per_io_us: float = Field(gt=0)
    card_bandwidth_mb_s: float = Field(gt=0)


class DeviceAdapterType(Sourced):
    """The device adapter (DA) generation of a system; figures are for one DA pair.

    A DA pair's service time for one back-end operation of b bytes is
    `per_op_us` + b / `bandwidth_mb_s`.
    """

    name: str
    generation: str
    per_op_us: float = Field(gt=0)
    bandwidth_mb_s: float = Field(gt=0)
    commands_per_hdd: int = Field(ge=1)
    """The most commands the DA keeps outstanding at one HDD: with the drive's own command
    queue it bounds the queue a drive reorders (`model.costs.queue_limit`)."""


class ProcessorCosts(Sourced):
    """Processor core time per host I/O (microseconds of one core at the system's clock)."""

    read_hit_us: float = Field(gt=0)
    read_miss_us: float = Field(gt=0)
    write_us: float = Field(gt=0)
    sequential_read_us: float = Field(gt=0)
    destage_us: float = Field(gt=0)


class StorageSystem(Sourced):
    """A storage system model (e.g. DS8800 2107-951): its options and performance parameters."""

    name: str
    family: str
    machine_type: str
    model: str
    processor: str
    servers: int = Field(ge=1)
    processor_options: list[ProcessorOption] = Field(min_length=1)
    nvs_fraction: float = Field(gt=0, lt=1)
    nvs_rank_limit_fraction: float = Field(gt=0, le=1)
    """The most of a server's NVS one rank's dirty data may fill."""
    front_end_latency_us: float = Field(ge=0)
    easy_tier_generation: Literal[1, 2]
    """The Easy Tier generation the system shipped with: a pool's `easy_tier.generation`
    when the scenario does not say."""
    write_copy_us_per_kib: float = Field(ge=0)
    log_striping_us: float = Field(ge=0)
    """The striping layer's own time per striped log write (docs/model.md §6b)."""
    host_adapters: list[HostAdapterType] = Field(min_length=1)
    default_host_adapter: str
    max_host_ports: int = Field(ge=1)
    max_da_pairs: int = Field(ge=1)
    device_adapter: DeviceAdapterType
    processor_costs: ProcessorCosts
    max_ranks_per_da_pair: int = Field(ge=1)
    drives: list[str] = Field(min_length=1)
    raid_formats: list[str] = Field(min_length=1)

    def host_adapter(self, name: str | None = None) -> HostAdapterType:
        """The host adapter type called `name` (the default one when `name` is None)."""
        wanted = name or self.default_host_adapter
        for adapter in self.host_adapters:
            if adapter.name == wanted:
                return adapter
        raise KeyError(wanted)

    def processor_option(self, ways: int) -> ProcessorOption:
        """The processor option with `ways` cores per server."""
        for option in self.processor_options:
            if option.ways == ways:
                return option
        raise KeyError(ways)

    @model_validator(mode="after")
    def _default_adapter_exists(self) -> StorageSystem:
        names = [a.name for a in self.host_adapters]
        if self.default_host_adapter not in names:
            raise ValueError(
                f"default_host_adapter {self.default_host_adapter!r} is not one of {names}"
            )
        return self
