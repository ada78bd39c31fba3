"""Device adapter (DA) pairs: every drive operation of the ranks a pair serves costs it a fixed
per-operation time (command handling and RAID logic in the adapter) plus the transfer of its
bytes at the pair's bandwidth (DOMAIN.md item 4). One DA pair is one queue: the catalog's
figures are for the pair."""

from __future__ import annotations

from diskmodel.catalog import DeviceAdapterType
from diskmodel.components.drive import ServiceMoments
from diskmodel.units import MB, US


def da_op_service(adapter: DeviceAdapterType, size_bytes: float) -> ServiceMoments:
    """One back-end drive operation of `size_bytes` through a DA pair (fixed)."""
    return ServiceMoments.deterministic(
        adapter.per_op_us * US + size_bytes / (adapter.bandwidth_mb_s * MB)
    )
