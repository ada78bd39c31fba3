"""A striped database log's commit time from a system's catalog figures (`diskmodel
logwrite`; the model is `diskmodel.logwrite`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.logwrite import StripingSummary

LOG_PAGES = (1, 2, 8, 32, 128)
"""The pages per commit `log_striping` shows when not told."""


def log_striping(
    system: str = "ds8800-951",
    *,
    host_adapter: str | None = None,
    page_kib: float = 4.0,
    pages: Sequence[int] = LOG_PAGES,
    links: int | None = None,
    utilization: float = 0.0,
    service_us: float = 50.0,
    catalog_files: Sequence[Path] = (),
) -> StripingSummary:
    """Commit times of `pages` pages of `page_kib` KiB on 1, 2, 4 and 8 stripes through the
    catalog `system`'s host adapter (its default, or `host_adapter`), and from how many
    pages each stripe count beats one.

    links: links (channels, ports) the stripes share; None: each stripe its own.
    utilization, service_us: the busiest station on each path, busy that fraction with
    other work at that service per operation (an M/M/1 wait; 0: idle).
    An `InputError` names a system or host adapter the catalog does not have.
    """
    from diskmodel.api.catalog_lookup import load_catalog
    from diskmodel.errors import InputError
    from diskmodel.logwrite import Contention, LogPath, striping_summary

    catalog = load_catalog(catalog_files)
    chosen = catalog.systems.get(system)
    if chosen is None:
        raise InputError(
            f"--system: no system '{system}' in the catalog (systems: "
            f"{', '.join(sorted(catalog.systems))})"
        )
    names = [a.name for a in chosen.host_adapters]
    if host_adapter is not None and host_adapter not in names:
        raise InputError(
            f"--host-adapter: {system} has no host adapter '{host_adapter}' "
            f"(its adapters: {', '.join(names)})"
        )
    port = chosen.host_adapter(host_adapter)
    path = LogPath.from_hardware(
        chosen.front_end_latency_us,
        port.port_bandwidth_mb_s,
        chosen.write_copy_us_per_kib,
        page_kib,
        striping_us=chosen.log_striping_us,
    )
    busy = Contention.mm1(utilization, service_us) if utilization > 0 else None
    return striping_summary(path, pages, links=links, contention=busy)


def log_striping_text(summary: StripingSummary) -> str:
    """The summary as text for the terminal: one row per page count, the commit time at each
    stripe count and the best, then from how many pages each stripe count helps."""
    from diskmodel.report.logwrite_text import render_logwrite

    s = summary
    return render_logwrite(s.description, s.stripes, s.pages, s.times_us, s.helps_from)
