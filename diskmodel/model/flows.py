"""The network's flows, per workload: each workload's I/O class (or its asynchronous back-end
work) at one station, held as columns (`Flows`), and the flows one workload makes at its
pool's ranks and their DA pairs (`rank_flows`), from where the placement puts its small I/O
and its MB (`WorkloadShares`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from diskmodel.configuration import WorkloadConfig
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import PoolLayout
from diskmodel.model.network import FloatArray, RankInfo
from diskmodel.workload import IO_CLASSES, IoClass, IoMix


@dataclass(frozen=True)
class WorkloadShares:
    """Where one workload's work goes: per rank of its pool (in the order given) its share of
    the small random and of the sequential back-end work, and the share of its I/O each
    server handles."""

    small: list[float]
    mb: list[float]
    servers: tuple[float, ...]


def workload_shares(
    workload: WorkloadConfig, layout: PoolLayout, pool_ranks: Sequence[RankInfo], servers: int
) -> WorkloadShares:
    """Tier shares from the placement, split within a tier by the layout's rank shares; the
    servers by the data each owns (an I/O is handled by the server owning its rank)."""
    on = {share.tier: share for share in layout.placement.workload(workload.name).tiers}
    small: list[float] = []
    mb: list[float] = []
    owned = [0.0] * servers
    for info in pool_ranks:
        rank = info.rank
        share = on[rank.tier]
        part = layout.ranks[rank.index]
        small.append(share.small_io_share * part.small_io_share)
        mb.append(share.mb_share * part.data_share)  # the MB follow the data
        owned[rank.server] += share.capacity_used_gb * part.data_share
    total = sum(owned)
    split = tuple(o / total for o in owned) if total > 0 else tuple([1.0 / servers] * servers)
    return WorkloadShares(small, mb, split)


class Flows:
    """Flows as columns, in the order they are added: each flow is the work of one workload's
    I/O class at one station (the host side's: host ports, adapter cards, FICON channels and
    Metro Mirror links, `NetworkBuilder._host_flows`).

    rate: arrivals at one server of the station (a rank: one drive) per host I/O of the
    workload. visits: visits per host I/O *of the class* (host-visible flows only; a rank
    visit is to one of its drives). mean_s: the mean service of one arrival. size_bytes: bytes
    moved per operation. visible: the host waits for it; destage: destage work.

    Columns, not one object per flow: a run builds a network per placement, a hundred or more,
    each of some 850 flows. The host ports' and cards' flows, the same in every network of a
    configuration, are made and summed once (`NetworkBuilder`); a workload's flows at the
    servers and at its pool's ranks are made as columns of their own (`rank_flows`) and
    summed for it alone (`network_build._workload_sums`). No two kinds meet at a station, and
    each keeps its order, so summing them per (workload, station) (`np.bincount` adds in
    index order) gives, to the last bit, the sums of a loop over each station's flows in the
    order added."""

    def __init__(self) -> None:
        self._lists: tuple[list[Any], ...] = tuple([] for _ in range(9))

    def add(
        self,
        w: int,
        io_class: IoClass,
        stations: Sequence[int],
        *,
        rate: float | list[float],
        visits: float | list[float],
        mean_s: float | list[float],
        visible: bool | list[bool],
        destage: bool,
        size_bytes: float,
    ) -> None:
        """Flows of workload `w`'s `io_class` at `stations`; each column one value for all
        or one per station."""
        n = len(stations)
        lists = self._lists
        lists[0].extend([w] * n)
        lists[1].extend([IO_CLASSES.index(io_class)] * n)
        lists[2].extend(stations)
        for k, value in enumerate((rate, visits, mean_s, visible, destage, size_bytes), start=3):
            lists[k].extend(value if isinstance(value, list) else [value] * n)

    def columns(self) -> tuple[np.ndarray, ...]:
        """(workload, class index, station, rate, visits, mean_s, visible, destage,
        size_bytes): the flows in the order added."""
        return tuple(np.array(col, dtype=t) for col, t in zip(self._lists, _TYPES, strict=True))


_TYPES = (np.int64, np.int64, np.int64) + (np.float64,) * 3 + (bool, bool, np.float64)
"""The dtypes of `Flows.columns`."""


def rank_flows(
    costs: OpCosts,
    w: int,
    mix: IoMix,
    pool_ranks: Sequence[RankInfo],
    shares: WorkloadShares,
    first: int,
    before: FloatArray,
) -> tuple[FloatArray, tuple[NDArray[np.int64], FloatArray]]:
    """Workload `w`'s flows `before` and then its flows at its pool's ranks and their DA
    pairs, as rows of one array [8, flows] (`FLOW_FIGURES`: station, class index, rate,
    visits, mean service, host-visible and destage work as 0 or 1, size), the stations
    numbered within the pool: the ranks from `first` on in the order given, then each rank's
    flows at its DA pair, whichever that is, as a station of its own (the caller's numbers
    stand for the network's stations, `network_build._PoolFlows`): per rank, per
    back-end operation (`OpCosts.op_table`) with a positive share, the flow at one of the
    rank's drives, and the same operation's flow at the rank's DA pair; the drive flows first
    (in rank and operation order), then the DA pairs' (in the same order). A flow's place
    among those at its own station is the one it had with each DA pair flow straight after
    its drive flow, which is all a station's sums read (`Flows`). The random operations take
    the rank's share of the small I/O, the sequential ones its share of the MB. Also, per
    drive flow, its rank station and [4, drive flows] per host I/O of the workload its
    operations, busy time, its positioning part (what the drive's reordering can shorten)
    and the operations' second moments of service."""
    # Ranks of a kind on one span share a table: looked up once each (34 look-ups a network
    # and workload on measured-peaks, for two tables).
    by_kind: dict[tuple[str, str, float], FloatArray] = {}
    tables = []
    for info in pool_ranks:
        kind = (info.rank.drive.name, info.rank.raid.name, info.span)
        table = by_kind.get(kind)
        if table is None:
            table = by_kind[kind] = costs.op_table(w, mix, info.rank, info.span)
        tables.append(table)
    # Per operation its rank's small-I/O and MB shares, active drives and two stations.
    n = len(pool_ranks)
    per_rank = np.array(
        [
            shares.small,
            shares.mb,
            [info.rank.active_drives for info in pool_ranks],
            list(range(first, first + n)),
            list(range(first + n, first + 2 * n)),
        ],
        dtype=np.float64,
    )
    per_op = np.repeat(per_rank, [t.shape[1] for t in tables], axis=1)
    table = np.concatenate(tables, axis=1)
    share = np.where(table[3] > 0, per_op[1], per_op[0])
    keep = share > 0
    if not keep.all():
        table, per_op, share = table[:, keep], per_op[:, keep], share[keep]
    io_class, fraction, count, _, visible, destage, size, drive_s, da_s = table[:9]
    rank_ops = fraction * share * count
    # A flow the host does not wait for has no visits (`visible` is 0 or 1).
    visits = share * count * visible
    drive_flows = (per_op[3], io_class, rank_ops / per_op[2], visits, drive_s, visible, destage)
    da_flows = (per_op[4], io_class, rank_ops, visits, da_s, visible, destage)
    flows = np.concatenate(
        [before, np.array([*drive_flows, size]), np.array([*da_flows, size])], axis=1
    )
    drive_terms = np.concatenate([rank_ops[None], rank_ops * table[_DRIVE_FIGURES]])
    return flows, (per_op[3].astype(np.int64), drive_terms)


FLOW_FIGURES = 8
"""The rows of `rank_flows`' flows: station, class index, rate, visits, mean service,
host-visible, destage work, size."""
_DRIVE_FIGURES = [7, 9, 10]
"""`OpCosts.op_table`'s rows of a drive operation's mean service, its positioning part and its
second moment."""
