"""Host adapters: ports, the card they share, and the fixed front-end latency of an I/O.

- Port: every host I/O costs one port a fixed protocol overhead plus the transfer of its data
  at the port's bandwidth (DOMAIN.md item 1). Load is spread evenly over the configured ports
  (multipath host drivers balance I/O over paths); each port is a queue.
- Card: a DS8000 host adapter card carries `ports_per_adapter` ports (4 on the DS8700 and
  DS8800 cards modelled) behind one adapter processor and one PCI Express link, so every I/O
  of its ports also costs the card `card_per_io_us` (`card_command`) + bytes /
  `card_bandwidth_mb_s` (`card_transfer`); the card is one queue shared by its ports
  (`card_service`, the sum). The link transfer is pipelined with the port's (the data streams
  through the card while the port sends it), so it keeps the card busy, and other I/Os wait
  behind it, but adds nothing to the I/O's own time; the command's time is part of the fixed
  front-end time below.
- Front-end latency: a host I/O also spends a fixed time in the front end that is a delay,
  not a queue (channel and adapter protocol exchanges, NVS mirroring to the other server):
  DOMAIN.md C6 measures about 150 us of fixed time per I/O at light load on a DS8800. The
  catalog's `front_end_latency_us` is that whole light-load time; the stations the model
  already times (port, card, processor) are part of it, so `front_end_delay_s` returns only
  the rest, never below zero.
"""

from __future__ import annotations

from diskmodel.catalog import HostAdapterType, StorageSystem
from diskmodel.components.drive import ServiceMoments
from diskmodel.units import MB, US


def port_service(adapter: HostAdapterType, size_bytes: float) -> ServiceMoments:
    """One host I/O of `size_bytes` on one port: overhead + bytes / port bandwidth (fixed)."""
    return ServiceMoments.deterministic(
        adapter.per_io_overhead_us * US + size_bytes / (adapter.port_bandwidth_mb_s * MB)
    )


def card_service(adapter: HostAdapterType, size_bytes: float) -> ServiceMoments:
    """One host I/O of `size_bytes` through the card its port sits on: the card processor's
    per-I/O cost + bytes / the card's link bandwidth (fixed). The card is one station shared
    by its `ports_per_adapter` ports."""
    return ServiceMoments.deterministic(
        card_command(adapter).mean_s + card_transfer(adapter, size_bytes).mean_s
    )


def card_command(adapter: HostAdapterType) -> ServiceMoments:
    """The card processor's work for one host I/O, whatever its size (fixed)."""
    return ServiceMoments.deterministic(adapter.card_per_io_us * US)


def card_transfer(adapter: HostAdapterType, size_bytes: float) -> ServiceMoments:
    """`size_bytes` over the card's PCI Express link (fixed): pipelined with the port's own
    transfer of the same data, so the host does not wait for it beyond the port's."""
    return ServiceMoments.deterministic(size_bytes / (adapter.card_bandwidth_mb_s * MB))


def cards_for_ports(adapter: HostAdapterType, host_ports: int) -> int:
    """Cards needed for `host_ports` ports: ceil(ports / ports per card)."""
    if host_ports < 1:
        raise ValueError("host_ports must be >= 1")
    return -(-host_ports // adapter.ports_per_adapter)


def front_end_delay_s(system: StorageSystem, counted_service_s: float) -> float:
    """The fixed per-I/O delay to add to a host I/O's response time (a delay, no queue).

    `counted_service_s` is the light-load service time the model already gives the I/O in the
    front end (its port, card and processor service, without queueing); the delay is the rest
    of the system's `front_end_latency_us`: max(0, latency - counted).
    """
    if counted_service_s < 0:
        raise ValueError("counted_service_s must be >= 0")
    return max(system.front_end_latency_us * US - counted_service_s, 0.0)
