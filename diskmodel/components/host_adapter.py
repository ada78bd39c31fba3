"""Host adapter ports: every host I/O costs one port a fixed protocol overhead plus the
transfer of its data at the port's bandwidth (DOMAIN.md item 1). Load is spread evenly over
the configured ports (multipath host drivers balance I/O over paths); each port is a queue."""

from __future__ import annotations

from diskmodel.catalog import HostAdapterType
from diskmodel.components.drive import ServiceMoments

US = 1e-6
MB = 1e6


def port_service(adapter: HostAdapterType, size_bytes: float) -> ServiceMoments:
    """One host I/O of `size_bytes` on one port: overhead + bytes / port bandwidth (fixed)."""
    return ServiceMoments.deterministic(
        adapter.per_io_overhead_us * US + size_bytes / (adapter.port_bandwidth_mb_s * MB)
    )
