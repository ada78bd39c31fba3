"""A small sourced 15K RPM drive model for the auto-rebalance tests (the storage model's drive
component replaces it in the product).

Seek time over a distance d (fraction of the full stroke), after Ruemmler & Wilkes, "An
introduction to disk drive modeling", IEEE Computer 27(3), 1994: it grows with sqrt(d) for
short seeks (the arm accelerates then decelerates) and linearly for long ones (it coasts):
    t(d) = b sqrt(d)                        for d <= d0
    t(d) = b sqrt(d0) / 2 + b d / (2 sqrt(d0))  for d > d0   (value and slope continuous)
b and d0 are the only two constants, fixed by DOMAIN.md C1 for a 15K drive: full stroke
t(1) = 7.4 ms and average seek 3.5 ms (reads). A drive's "average seek" is the average over all
seek combinations (manufacturers' weighted average), i.e. over two uniform random positions,
whose distance u has density 2 (1 - u); over a span s of the stroke the distance is s u.
That fit gives b = 6.387 ms and d0 = 0.329.

Busy time per back-end operation = average seek over the span + 2.0 ms rotational latency
(C1) + 0.5 ms extra settle for the write share of the operations (C1: writes seek 4.0 / 7.9 ms
against 3.5 / 7.4 for reads). Transfer of 4 KB (about 0.03 ms) and controller overhead are left
out; command queueing (which shortens seeks at deep queues) is not modelled.
"""

from __future__ import annotations

import math
from functools import lru_cache

from scipy.integrate import quad
from scipy.optimize import brentq

FULL_STROKE_READ_MS = 7.4  # DOMAIN.md C1
AVG_SEEK_READ_MS = 3.5  # DOMAIN.md C1
ROTATIONAL_LATENCY_MS = 2.0  # DOMAIN.md C1
WRITE_SETTLE_EXTRA_MS = 4.0 - 3.5  # DOMAIN.md C1: write minus read average seek


def _seek_ms(d: float, b: float, d0: float) -> float:
    if d <= d0:
        return b * math.sqrt(d)
    return b * math.sqrt(d0) / 2.0 + b * d / (2.0 * math.sqrt(d0))


def _b_for(d0: float) -> float:
    # t(1) = b (sqrt(d0) / 2 + 1 / (2 sqrt(d0))) = full stroke
    return FULL_STROKE_READ_MS / (math.sqrt(d0) / 2.0 + 1.0 / (2.0 * math.sqrt(d0)))


def _average_seek_ms(span: float, b: float, d0: float) -> float:
    if span <= 0.0:
        return 0.0
    kink = [d0 / span] if d0 < span else None
    value, _ = quad(lambda u: 2.0 * (1.0 - u) * _seek_ms(span * u, b, d0), 0.0, 1.0, points=kink)
    return float(value)


@lru_cache(maxsize=1)
def seek_constants() -> tuple[float, float]:
    """(b_ms, d0) fitted to the C1 full-stroke and average seek."""
    d0 = brentq(
        lambda x: _average_seek_ms(1.0, _b_for(x), x) - AVG_SEEK_READ_MS, 1e-3, 1.0, xtol=1e-12
    )
    return _b_for(d0), float(d0)


def average_seek_ms(span: float) -> float:
    """Average read seek when the data lie on the given fraction of the stroke."""
    b, d0 = seek_constants()
    return _average_seek_ms(span, b, d0)


def db_open_write_op_fraction() -> float:
    """Write share of the back-end operations of DOMAIN C2 "DB Open" on RAID-5.

    Per host I/O: read misses 0.70 x (1 - 0.50) = 0.35; destages 0.172 (C2, read as destages
    per host I/O), each a RAID-5 read-modify-write of 2 reads + 2 writes.
    """
    read_miss = 0.70 * (1.0 - 0.50)
    destage = 0.172
    reads, writes = read_miss + 2 * destage, 2 * destage
    return writes / (reads + writes)


def busy_time_s(span: float) -> float:
    """Busy time of one drive per back-end DB Open operation, data over `span` of the stroke."""
    ms = average_seek_ms(span) + ROTATIONAL_LATENCY_MS
    ms += db_open_write_op_fraction() * WRITE_SETTLE_EXTRA_MS
    return ms / 1000.0
