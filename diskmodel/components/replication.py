"""Copy services physics: Metro Mirror's added write time, the replication links as a queueing
station, Global Mirror's link budget over intervals, FlashCopy's back-end work.

Pure functions of plain numbers; the figures they need (light in fibre, round trips per write,
consistency-group timings) come from `components.copy_services_figures` (sourced in
`copy_services.yaml`) and are passed in, so every function says what it assumes.

**Metro Mirror** (synchronous PPRC). A replicated host write is acknowledged only when the
secondary has it in cache and NVS. Its added time is

    added = round_trips x 2 x distance_km x us_per_km         (light in the fibre, both ways)
          + link response (wait + service at the links)        (`model.copy_links`)
          + the secondary's own write response at its load     (the model's, solved apart)

with round_trips = 1 for PPRC over Fibre Channel with pre-deposit write (the command, its
control data and the data go out in one exchange, the status comes back: IBM US 7,613,785).
Reads never touch the links or the secondary (DS8000 Metro Mirror reads from the primary).

**The links** are `count` servers; one replicated write occupies one link for the port's
protocol work plus its transfer at the link's payload rate (`link_service_s`); the model
queues them (`model.copy_links`).

**Global Mirror** (asynchronous: Global Copy plus consistency groups). Each interval offers
the links its write MB/s; what they cannot carry is a backlog carried into the next interval
(`global_mirror_intervals`); the recovery point is the consistency-group interval, plus the
time to form a group, plus the backlog's time on the links. Forming a group holds host writes
for the coordination time once a cycle: a write arriving then waits half of it on average.

**FlashCopy** NOCOPY copies a source track to the target the first time it is destaged after
the copy was taken (copy-on-write at destage: IBM Redbook 'DS6000 Series: Copy Services with
IBM System z', 10.5): one track read on the source rank and one track write on the target
rank. The share of destages that are first writes over a window follows from how often each
track is written (`first_write_fraction`).
Background COPY reads the whole source and writes the target over a stated time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.units import MB, US

# ------------------------------------------------------------------ Metro Mirror and links


def propagation_s(distance_km: float, round_trips: float, fibre_us_per_km: float) -> float:
    """Time in flight of one replicated write: `round_trips` there-and-back journeys of
    `distance_km` of fibre at `fibre_us_per_km` one way (seconds)."""
    return round_trips * 2.0 * distance_km * fibre_us_per_km * US


def link_service_s(size_bytes: float, per_op_us: float, link_mb_s: float) -> float:
    """One write on one link: the port's protocol work plus the data at the payload rate."""
    return per_op_us * US + size_bytes / (link_mb_s * MB)


def metro_mirror_added_s(
    *,
    distance_km: float,
    round_trips: float,
    fibre_us_per_km: float,
    link_response_s: float,
    secondary_write_s: float,
) -> float:
    """What Metro Mirror adds to one replicated host write (module docstring): in flight, at
    the links (wait + service; inf where they saturate), and the secondary's write."""
    return (
        propagation_s(distance_km, round_trips, fibre_us_per_km)
        + link_response_s
        + secondary_write_s
    )


# ---------------------------------------------------------------------------- Global Mirror


@dataclass(frozen=True)
class GlobalMirrorIntervals:
    """Global Mirror over a run of intervals of `interval_s` seconds each.

    offered_utilization: each interval's write MB/s over the links' MB/s (above 1: too slow);
    busy: the links' busy fraction in each interval (the backlog they work off counts);
    backlog_mb: data written but not yet on the secondary at each interval's end;
    rpo_s: the recovery point at each interval's end (group interval + formation + backlog's
    time on the links); drain_s: the longest time a backlog took to clear (inf when the last
    interval still holds one that the links' spare rate cannot clear: never, at that load);
    peak: index of the interval with the most write MB/s.
    """

    interval_s: float
    capacity_mb_s: float
    demand_mb_s: tuple[float, ...]
    offered_utilization: tuple[float, ...]
    busy: tuple[float, ...]
    backlog_mb: tuple[float, ...]
    rpo_s: tuple[float, ...]
    drain_s: float
    peak: int

    @property
    def too_slow(self) -> bool:
        """True when some interval offers the links more than they carry."""
        return any(u > 1.0 for u in self.offered_utilization)

    @property
    def links_needed_factor(self) -> float:
        """How many times the links' rate the peak interval needs."""
        return self.demand_mb_s[self.peak] / self.capacity_mb_s


def global_mirror_intervals(
    demand_mb_s: Sequence[float],
    *,
    interval_s: float,
    capacity_mb_s: float,
    group_interval_s: float,
    formation_s: float,
) -> GlobalMirrorIntervals:
    """Carry each interval's replicated writes over the links (fluid model): backlog
    B_i = max(0, B_(i-1) + (D_i - C) t); busy_i = min(1, (D_i t + B_(i-1)) / (C t));
    RPO_i = group interval + formation + B_i / C. The drain time of a backlog runs from the
    end of the interval where it last grew until it is gone, at the spare rate C - D of the
    intervals after it."""
    if capacity_mb_s <= 0 or interval_s <= 0:
        raise ValueError("the links' rate and the interval must be positive")
    backlog = 0.0
    offered, busy, backlogs, rpo = [], [], [], []
    drain = 0.0
    draining_since: float | None = None  # seconds into the run when the backlog last peaked
    for i, d in enumerate(demand_mb_s):
        offered.append(d / capacity_mb_s)
        busy.append(min(1.0, (d * interval_s + backlog) / (capacity_mb_s * interval_s)))
        before = backlog
        backlog = max(0.0, backlog + (d - capacity_mb_s) * interval_s)
        start = i * interval_s
        if backlog > before:
            draining_since = start + interval_s
        elif before > 0.0 and backlog == 0.0 and draining_since is not None:
            # Cleared within this interval: at the spare rate C - d, before / (C - d) in.
            drain = max(drain, start + before / (capacity_mb_s - d) - draining_since)
            draining_since = None
        backlogs.append(backlog)
        rpo.append(group_interval_s + formation_s + backlog / capacity_mb_s)
    if backlog > 0.0:
        drain = math.inf
    peak = int(np.argmax(demand_mb_s)) if len(demand_mb_s) else 0
    return GlobalMirrorIntervals(
        interval_s,
        capacity_mb_s,
        tuple(float(d) for d in demand_mb_s),
        tuple(offered),
        tuple(busy),
        tuple(backlogs),
        tuple(rpo),
        drain,
        peak,
    )


def coordination_added_s(coordination_s: float, cycle_s: float) -> float:
    """Mean time a host write waits for consistency-group coordination: writes are held for
    `coordination_s` once every `cycle_s` (group interval + formation); a write arrives in the
    hold with probability coordination / cycle and then waits half of it on average."""
    if cycle_s <= 0:
        return coordination_s / 2.0
    held = min(coordination_s / cycle_s, 1.0)
    return held * coordination_s / 2.0


# -------------------------------------------------------------------------------- FlashCopy


def first_write_fraction(
    destages_per_s: float, tracks: float, window_s: float, density: ArrayLike | None = None
) -> float:
    """Share of a volume's destages over `window_s` after a NOCOPY FlashCopy that are the
    first to their track (and so copy it). A track written at rate r is first written at
    time ~ Exp(r); over the window it is copied once if touched. With tracks of relative
    write density g(c) (mean 1 over the capacity, sampled at equal steps of it; None:
    uniform) and x = destages_per_s x window_s / tracks:

        copies / destages = (1 / x) mean_c (1 - exp(-x g(c)))

    which is (1 - e^-x) / x when uniform; skew (hot tracks written again and again) lowers it.
    """
    if destages_per_s <= 0 or window_s <= 0 or tracks <= 0:
        return 0.0
    x = destages_per_s * window_s / tracks
    g = np.ones(1) if density is None else np.asarray(density, dtype=np.float64)
    if g.size == 0 or np.any(g < 0):
        raise ValueError("a write density is a non-empty array of values >= 0")
    g = g / g.mean()
    return float(np.mean(-np.expm1(-x * g)) / x)


@dataclass(frozen=True)
class FlashCopyWork:
    """Extra back-end work of a FlashCopy, per host write of its source workload (copy-on-
    write) and as a steady background rate (COPY): source track reads and target track
    writes (one track each, `track_bytes`), and background bytes per second read from the
    source and written to the target."""

    source_reads_per_write: float
    target_writes_per_write: float
    background_bytes_per_s: float
    track_bytes: float


def flashcopy_work(
    *,
    mode: str,
    destage_ratio: float,
    first_writes: float,
    capacity_bytes: float,
    copy_s: float | None,
    track_bytes: float,
) -> FlashCopyWork:
    """NOCOPY: each first write to a track (the `first_writes` share of destages) reads the
    track on the source and writes it on the target. COPY: the whole source, read and
    written once over `copy_s`, as background; writes ahead of the background copy still
    copy first, taken at the same share."""
    per_write = destage_ratio * first_writes
    background = capacity_bytes / copy_s if mode == "copy" and copy_s else 0.0
    return FlashCopyWork(per_write, per_write, background, track_bytes)
