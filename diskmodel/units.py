"""The units the model converts at its edges, in one place.

The model computes in seconds, bytes and bytes per second; scenarios, the catalog and the
results speak in milliseconds, microseconds, KiB, MB/s and GB. Sizes of I/Os and cache pages
are binary (KiB); rates and capacities are decimal (MB/s, GB), as the published figures quote
them.
"""

from __future__ import annotations

MS = 1e-3
"""Seconds per millisecond."""

US = 1e-6
"""Seconds per microsecond."""

KIB = 1024
"""Bytes per KiB (I/O and page sizes)."""

MB = 1e6
"""Bytes per (decimal) megabyte: media, link and adapter rates are quoted in MB/s."""

GB = 1e9
"""Bytes per (decimal) gigabyte: drive and cache capacities are quoted in GB."""
