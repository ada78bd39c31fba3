"""How evenly a pool's SSD ranks sit on the DA pairs and the servers: one verdict for `check`,
the report's alerts and all-clear line, and the tier sweep.

Easy Tier puts the hottest data on the SSD ranks in equal shares, so the DA pair or server
that holds more of them carries more of the hot I/O: three SSD ranks split 2/1 give the
first pair two thirds of it, and the maximum can fall below that of two ranks split 1/1.
Counts are uneven when any two differ (an odd count over two cannot be even); the verdict
names the counts, from DA pair 0 and server 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import Prediction


def counts_text(counts: Sequence[int]) -> str:
    """ "2/1": ranks per DA pair (or server), from 0."""
    return "/".join(str(n) for n in counts)


def uneven_text(per_pair: Sequence[int], per_server: Sequence[int] = ()) -> str:
    """ "DA pairs 2/1, servers 2/1" for what is uneven, "" when both are even (or empty)."""
    parts = []
    if per_pair and max(per_pair) != min(per_pair):
        parts.append(f"DA pairs {counts_text(per_pair)}")
    if per_server and max(per_server) != min(per_server):
        parts.append(f"servers {counts_text(per_server)}")
    return ", ".join(parts)


def ssd_spread(p: Prediction) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """(pool, SSD ranks per DA pair, per server) of each pool with SSD ranks, every DA pair of
    the system counted (one that holds none is a 0)."""
    out = []
    for pool in p.inputs.pools:
        per_pair = [0] * p.inputs.system.da_pairs
        for group in p.inputs.ranks:
            if group.pool == pool.name and group.tier == "ssd":
                for pair, count in group.ranks_per_da_pair:
                    per_pair[pair] += count
        if sum(per_pair):
            out.append((pool.name, tuple(per_pair), tuple(pool.ssd_ranks_per_server)))
    return out


def uneven_ssd(p: Prediction) -> list[tuple[str, int, str]]:
    """(pool, SSD ranks, what is uneven) of each pool whose SSD ranks are not even."""
    out = []
    for pool, per_pair, per_server in ssd_spread(p):
        text = uneven_text(per_pair, per_server)
        if text:
            out.append((pool, sum(per_pair), text))
    return out
