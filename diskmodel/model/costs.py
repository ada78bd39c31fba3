"""Back-end operation costs of a workload's I/O classes on a rank: how many drive operations,
of what size, and how long each takes on a drive (with its data on a given span) and through the
DA pair, and a drive's command-queueing gain. The network's flows and the placement's tier
ceilings both use them, memoised per configuration by its `OpCosts` (which the configuration's
`Solver` owns), so the drive physics is evaluated once per (distinct workload inputs: mix and
FlashCopy work, drive, RAID format, span) and a gain once per (drive, queue, span, positioning
share) of that configuration.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from diskmodel.cached import kept_by_identity
from diskmodel.components import cache, destage, device_adapter, drive, raid
from diskmodel.components.drive import ServiceMoments
from diskmodel.configuration import Configuration, Drive, RaidFormat, Rank
from diskmodel.model.flashcopy_ops import carrier, flashcopy_ops
from diskmodel.model.kept import Kept
from diskmodel.queueing.station import load_dependent_rate_at
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

FloatArray = NDArray[np.float64]

V = TypeVar("V")

OP_FIGURES = 11
"""Rows of `OpCosts.op_table`: the figures of each operation."""


@dataclass(frozen=True, slots=True)
class OpCost:
    """Drive operations of one I/O class at one rank, per host I/O of the class and per unit
    of the rank's share of the class's back-end work: count, size, and the service of one
    operation on one drive (and how much of its mean is positioning, which a drive's command
    queue can shorten) and through the DA pair."""

    io_class: IoClass
    count: float
    size_bytes: float
    write: bool
    sequential: bool
    drive: ServiceMoments
    da: ServiceMoments
    positioning_s: float  # the part of drive.mean_s that is seek and rotation


@dataclass(frozen=True, slots=True)
class OpShape:
    """One operation of `OpCost` before the span of the rank's data is known: everything but
    a drive service (a random or broken-stream operation's seek is short-stroked to the span).
    `pending` is the destages an ordered destage sorts over (random destages only);
    `share` the probability that the operation before this one on the drive was of the same
    kind: another stop of the destage sweep (random destages) or the same stream's previous
    operation (sequential ones), `components.destage` and `drive.sequential_op`."""

    io_class: IoClass
    count: float
    size_bytes: float
    write: bool
    sequential: bool
    da: ServiceMoments
    pending: float | None
    share: float
    drive_bytes: float  # what passes under the head (a stream skipping parity: more)


class CostInputs(NamedTuple):
    """Everything of a configuration its operation costs are computed from besides its ranks
    and workloads (compared with ==): two configurations that agree in these, their ranks and
    their workloads get the same costs (`model.layout.placements_for`)."""

    device_adapter: object
    servers: int
    rank_nvs_bytes: float
    ordered_destage: bool
    flashcopy: tuple[tuple[int, object], ...]
    planned: tuple[float | None, ...]


def _inputs_of(
    flashcopy: Mapping[int, object], planned: Sequence[float | None], w: int, mix: IoMix
) -> tuple[object, ...]:
    """`OpCosts.cost_inputs` of workload `w` with `mix`, given the configuration's FlashCopy
    work per source workload and planned rates."""
    work = flashcopy.get(w)
    return (mix_key(mix), work, None if work is None else planned[w])


class _CostFront:
    """What `OpCosts` reads of a configuration besides its ranks (its hardware, workloads and
    copy services), worked out once for the configurations that hold the same ones
    (`_front_of`): the DA, the servers, ordered destage, FlashCopy's work per source workload
    and the planned rates, the workloads' mixes and cost inputs, and `CostInputs` by the
    ranks of the larger server (the rest of what a rank's NVS is worked out from)."""

    def __init__(self, config: Configuration) -> None:
        hw = config.hardware
        self.system = hw.system
        self.cache_gb = hw.cache_gb
        self.da = hw.system.device_adapter
        self.servers = hw.system.servers
        self.ordered = hw.ordered_destage
        copies = config.copy_services
        self.flashcopy = {} if copies is None else {f.workload: f.work for f in copies.flashcopies}
        self.planned = [w.iops for w in config.workloads]
        self.mixes = [w.mix for w in config.workloads]
        self.workload_inputs = tuple(
            _inputs_of(self.flashcopy, self.planned, w, mix) for w, mix in enumerate(self.mixes)
        )
        self._flashcopy_key = tuple(sorted(self.flashcopy.items(), key=lambda item: item[0]))
        self._inputs: dict[int, CostInputs] = {}

    def inputs_at(self, ranks_of_server: int) -> CostInputs:
        """`CostInputs` where the larger server owns `ranks_of_server` ranks (made once)."""
        found = self._inputs.get(ranks_of_server)
        if found is None:
            found = self._inputs[ranks_of_server] = CostInputs(
                self.da,
                self.servers,
                cache.rank_nvs_bytes(self.system, self.cache_gb, ranks_of_server),
                self.ordered,
                self._flashcopy_key,
                tuple(self.planned),
            )
        return found


_FRONTS_KEPT = 64
_fronts: dict[tuple[object, ...], tuple[tuple[object, ...], _CostFront]] = {}
"""`_CostFront`s by the hardware, workloads and copy services they were worked out from (by
identity, `kept_by_identity`: a sizing search's configurations share them,
`configuration.shared.SharedParts`), the last `_FRONTS_KEPT` (then all forgotten)."""


def _front_of(config: Configuration) -> _CostFront:
    """The `_CostFront` of `config`'s hardware, workloads and copy services (made once for
    the same objects)."""
    held = (config.hardware, config.workloads, config.copy_services)
    return kept_by_identity(_fronts, held, (), _FRONTS_KEPT, lambda: _CostFront(config))


class OpCosts:
    """Per-rank operation costs and drive gains of one configuration, memoised: the network
    and the placement's tier ceilings ask for the same (mix, rank, span) many times (one call
    each would repeat the drive physics), a ceiling search asks for one rank kind at many
    spans (what does not depend on the span is kept per rank kind), and a placement asks for
    a drive's gain per rank and round, thousands of times a run from a few dozen keys. Within
    a configuration a drive's name is its figures (`Catalog.installed_drive` for its system),
    so the keys name drives."""

    def __init__(self, config: Configuration) -> None:
        front = _front_of(config)
        self._da = front.da
        # The sort set of a rank's ordered destages is its share of its server's NVS, at most
        # the per-rank limit (`cache.rank_nvs_bytes`): the server's NVS split evenly over the
        # ranks of the larger server (identical ranks then sort over the same set whichever
        # server owns them; the servers own half the ranks each, give or take one).
        per_server = [0] * front.servers
        for r in config.ranks:
            per_server[r.server % front.servers] += 1
        self.inputs = front.inputs_at(max(per_server))
        self._rank_nvs_bytes = self.inputs.rank_nvs_bytes
        self._ordered = front.ordered
        # FlashCopy's work per source workload, and the planned rates its background copy is
        # taken per host I/O at (model.flashcopy_ops).
        self._flashcopy = front.flashcopy
        self._planned = front.planned
        self._mixes = front.mixes
        self._workload_inputs = front.workload_inputs
        # What the costs were worked out to, shared with every configuration whose costs are
        # these (`_memo_for`): a sizing search's candidates that differ in rank counts or DA
        # pairs ask for the same (workload, drive, RAID format, span) again.
        memo = self._memo = _memo_for(self.inputs, self._workload_inputs, config)
        self._cache = memo.cache
        self._shapes = memo.shapes
        self._tables = memo.tables
        self._gains = memo.gains
        self._work = memo.work
        self._kept_as = memo.kept_as
        self._first = memo.first
        # A workload's busy seconds per host I/O at a station of a rank kind, kept for every
        # configuration that shares these costs (`model.rank_times.PoolTimes` keys and fills
        # it): sums of these costs alone, whatever the rates, and a pool is timed afresh at
        # every load.
        self.busy = memo.busy

    def shared(self, key: tuple[object, ...], make: Callable[[], V]) -> V:
        """A value worked out from these costs alone and `key` (which says of what: a pool's
        workloads and rates, say), kept with the costs for every configuration that shares
        them (`_memo_for`): `make()`'s the first time. The caller's key must hold everything
        else the value depends on."""
        found = self._memo.derived.get(key)
        if found is None:
            found = self._memo.derived[key] = make()
        return found  # type: ignore[return-value]

    def kept(self, w: int, mix: IoMix) -> int:
        """The index workload `w`'s costs are kept under: that of the first workload asked for
        with the same `cost_inputs`. A pool of many workloads of one mix (64 volumes of one
        database) then evaluates each distinct (mix, drive, RAID format, span) once (issue 30
        item 5: 61,056 drive services for some 1,000 distinct inputs before)."""
        kept = self._kept_as.get(w)
        if kept is None:
            kept = self._kept_as[w] = self._first.setdefault(self.cost_inputs(w, mix), w)
        return kept

    def cost_inputs(self, w: int, mix: IoMix) -> tuple[object, ...]:
        """Everything of workload `w` its operation costs depend on, hashable: its mix (every
        field) and, for a FlashCopy source, the copy's work and the planned rate its
        background copy is taken per host I/O at (`_shapes_built`). Worked out once for
        each of the configuration's workloads (with its own mix)."""
        if w < len(self._mixes) and mix is self._mixes[w]:
            return self._workload_inputs[w]
        return _inputs_of(self._flashcopy, self._planned, w, mix)

    def gain(
        self, rank: Rank, span: float, depth: int, positioning_share: float | None = None
    ) -> FloatArray:
        """`drive_gain`, memoised by the grid point it is computed at. Read-only."""
        grid, share = _gain_grid(span, positioning_share)
        key = (rank.drive.name, depth, grid, share)
        found = self._gains.get(key)
        if found is None:
            found = self._gains[key] = _kept_gain(rank, span, depth, positioning_share)
        return found

    def work_at(self, utilization: float, gain: FloatArray) -> float:
        """`drive_work_at`, memoised (a placement asks for it per rank and round, with few
        distinct gains)."""
        key = (float(utilization), np.ascontiguousarray(gain, dtype=np.float64).tobytes())
        found = self._work.get(key)
        if found is None:
            found = self._work[key] = drive_work_at(utilization, gain)
        return found

    def queue_limit(self, rank: Rank) -> int:
        """The most requests one of the rank's drives holds to reorder (`queue_limit`)."""
        return queue_limit(rank, self._da.commands_per_hdd)

    def of(self, w: int, mix: IoMix, rank: Rank, span: float) -> tuple[OpCost, ...]:
        """Every back-end operation of workload `w`'s classes on `rank` with its data on
        `span` of each drive (short-stroking)."""
        span = costed_span(rank.drive, span)
        w = self.kept(w, mix)
        key = (w, rank.drive.name, rank.raid.name, span)
        found = self._cache.get(key)
        if found is None:
            found = tuple(self._at_span(op, rank, span) for op in self.span_free(w, mix, rank))
            self._cache[key] = found
        return found

    def op_table(self, w: int, mix: IoMix, rank: Rank, span: float) -> FloatArray:
        """`of` as one column per operation (`OP_FIGURES` rows), for the network's flows: the
        class's index in `IO_CLASSES`, its share of the workload's I/O, the count, whether it
        is sequential, host-visible (a read miss) and destage work (a write) as 0 or 1, the
        size, the mean service on a drive and through the DA pair, the drive service's
        positioning part and its second moment. Read-only: shared between callers."""
        span = costed_span(rank.drive, span)
        w = self.kept(w, mix)
        key = (w, rank.drive.name, rank.raid.name, span)
        found = self._tables.get(key)
        if found is None:
            rows = [
                (
                    IO_CLASSES.index(op.io_class),
                    mix.fractions[op.io_class],
                    op.count,
                    op.sequential,
                    op.io_class == "read_miss",
                    op.io_class.endswith("write"),
                    op.size_bytes,
                    op.drive.mean_s,
                    op.da.mean_s,
                    op.positioning_s,
                    op.drive.second_moment_s2,
                )
                for op in self.of(w, mix, rank, span)
            ]
            table = np.array(rows, dtype=np.float64).reshape(len(rows), OP_FIGURES)
            found = np.ascontiguousarray(table.T)
            found.setflags(write=False)
            self._tables[key] = found
        return found

    def pending_destages(self, rank: Rank, destage_bytes: float) -> float:
        """Destages waiting in NVS for each drive of `rank` when its share of NVS is full of
        dirty data (`cache.pending_destages_per_drive`): what ordered destage sorts over."""
        return cache.pending_destages_per_drive(
            self._rank_nvs_bytes,
            rank.active_drives,
            destage_bytes,
            max(round(rank.raid.random_write_writes), 1),
        )

    def span_free(self, w: int, mix: IoMix, rank: Rank) -> tuple[OpShape, ...]:
        """Every back-end operation of workload `w`'s classes on `rank` as far as it does not
        depend on the span of the rank's data (`of`, in the same order)."""
        w = self.kept(w, mix)
        key = (w, rank.drive.name, rank.raid.name)
        found = self._shapes.get(key)
        if found is None:
            # Built once for every NVS per rank (`_CostMemo.unsorted`); only an ordered
            # destage's sort set reads it.
            unsorted = self._memo.nvs_free.unsorted
            built = unsorted.get(key)
            if built is None:
                built = unsorted[key] = self._shapes_built(mix, rank, w)
            shapes, destaged = built
            found = self._shapes[key] = self._sorted(shapes, destaged, rank)
        return found

    def _sorted(
        self, shapes: tuple[OpShape, ...], destaged: tuple[int, ...], rank: Rank
    ) -> tuple[OpShape, ...]:
        """`shapes` with the ordered destages among them (their places `destaged`) given the
        destages they sort over in the rank's share of NVS (`pending_destages`)."""
        if not destaged:
            return shapes
        out = list(shapes)
        for i in destaged:
            out[i] = dataclasses.replace(
                out[i], pending=self.pending_destages(rank, out[i].size_bytes)
            )
        return tuple(out)

    def flashcopy_small_io_per_host_io(self, w: int, mix: IoMix) -> float:
        """FlashCopy's random track copies per host I/O of workload `w` (a read on the source
        and a write on the target each): what Easy Tier counts as its small I/O."""
        work = self._flashcopy.get(w)
        if work is None:
            return 0.0
        f = mix.fractions
        return 2.0 * (f["random_write"] + f["sequential_write"]) * work.source_reads_per_write

    def _shapes_built(
        self, mix: IoMix, rank: Rank, w: int
    ) -> tuple[tuple[OpShape, ...], tuple[int, ...]]:
        """`span_free`'s shapes with no ordered destage's sort set (`pending` None for all:
        the only figure that reads the rank's NVS), and the places of the ordered destages."""
        ops: list[tuple[IoClass, raid.DriveOps, float]] = []
        for io_class in IO_CLASSES:
            if mix.fractions[io_class] <= 0:
                continue
            size, coalesced = mix.backend_op(io_class)
            for op in _backend_ops(io_class, rank, size, mix.destage_ratio):
                if op.count > 0:
                    ops.append((io_class, op, mix.fractions[io_class] * op.count * coalesced))
        # FlashCopy's copies (model.flashcopy_ops): destage work counted under the workload's
        # writes; never a stop of the destage sweep (a copy goes to its own track).
        copies = len(ops)
        work = self._flashcopy.get(w)
        carried = carrier(mix) if work is not None else None
        if work is not None and carried is not None:
            ops += [
                (carried, op, op.count) for op in flashcopy_ops(work, mix, rank, self._planned[w])
            ]
        # How often the operation before one on the drive is of the same kind (a destage's
        # previous stop of the sweep, a stream's previous operation): the kind's share of the
        # drive operations this workload makes, operations in random order. Per host I/O of
        # the workload: its random and sequential operations land on a rank in proportion to
        # the rank's small-I/O and MB shares, taken equal here (they differ in tiered pools),
        # and the other workloads on the rank are not counted (an optimistic reading where a
        # rank is shared). A workload's sequential reads (writes) are taken as one stream per
        # rank: many concurrent streams on one rank interleave and would break each other.
        total = sum(rate for _, _, rate in ops)
        out = []
        ordered: list[int] = []
        for i, (io_class, op, rate) in enumerate(ops):
            sequential = op.pattern != "random"
            own = ops[:copies] if i < copies else ops[copies:]
            destaged = (
                self._ordered and not sequential and io_class == "random_write" and i < copies
            )
            same_kind = sum(r for c, o, r in own if c == io_class and o.pattern == op.pattern)
            out.append(
                OpShape(
                    io_class,
                    rate / mix.fractions[io_class],
                    op.size_bytes,
                    op.write,
                    sequential,
                    device_adapter.da_op_service(self._da, op.size_bytes),
                    None,
                    same_kind / total if total > 0 and (destaged or sequential) else 0.0,
                    op.drive_bytes,
                )
            )
            if destaged:
                ordered.append(i)
        return tuple(out), tuple(ordered)

    def _at_span(self, op: OpShape, rank: Rank, span: float) -> OpCost:
        d = rank.drive
        return _by_drive(
            _span_costs, _SPAN_COSTS_KEPT, d, (op, span), lambda: _span_cost(op, d, span)
        )


@dataclass
class _CostMemo:
    """What `OpCosts` worked out for configurations with the same `CostInputs` and workloads'
    cost inputs (`_memo_for`), by workload index, drive and RAID format names and span, with
    the drive and RAID format each name stood for (a name is its figures only within one
    configuration's system and catalog: `_memo_for` shares a memo only where they agree).

    cache, tables: `OpCosts.of` and `op_table` by (kept index, drive, RAID format, span);
    shapes: `span_free` by (kept index, drive, RAID format); gains, work: `gain`, `work_at`;
    kept_as, first: `OpCosts.kept`'s index per workload and per cost inputs."""

    drives: dict[str, Drive] = field(default_factory=dict)
    raids: dict[str, RaidFormat] = field(default_factory=dict)
    cache: dict[tuple[int, str, str, float], tuple[OpCost, ...]] = field(default_factory=dict)
    shapes: dict[tuple[int, str, str], tuple[OpShape, ...]] = field(default_factory=dict)
    tables: dict[tuple[int, str, str, float], FloatArray] = field(default_factory=dict)
    gains: dict[tuple[str, int, float, float], FloatArray] = field(default_factory=dict)
    work: dict[tuple[float, bytes], float] = field(default_factory=dict)
    # Per workload index, the index its costs are kept under: the first workload asked for
    # with the same inputs (`cost_inputs`). As everywhere here, an index always comes with
    # its own workload's mix.
    kept_as: dict[int, int] = field(default_factory=dict)
    first: dict[tuple[object, ...], int] = field(default_factory=dict)
    # What modules above work out from these costs alone (`OpCosts.shared`).
    derived: dict[tuple[object, ...], object] = field(default_factory=dict)
    # Busy seconds per host I/O at a station of a rank kind (`OpCosts.busy`).
    busy: dict[tuple[object, ...], tuple[float, ...]] = field(default_factory=dict)
    # `span_free`'s shapes before an ordered destage's sort set, and the ordered destages'
    # places, by (kept index, drive, RAID format), in the memo `nvs_free` (`_memo_for`):
    # shared by the memos of configurations that differ only in a rank's NVS.
    unsorted: dict[tuple[int, str, str], tuple[tuple[OpShape, ...], tuple[int, ...]]] = field(
        default_factory=dict
    )
    nvs_free: _CostMemo = field(init=False)

    def __post_init__(self) -> None:
        self.nvs_free = self

    def takes(self, ranks: tuple[Rank, ...]) -> bool:
        """Whether every drive and RAID format name of `ranks` stands for the figures it
        stands for here (or is new here, and is taken on)."""
        drives, raids = self.drives, self.raids
        new_drives: dict[str, Drive] = {}
        new_raids: dict[str, RaidFormat] = {}
        # Each rank kind as installed once (a configuration's ranks of a kind share their
        # drive and RAID format records).
        for r in {(id(r.drive), id(r.raid)): r for r in ranks}.values():
            d = drives.get(r.drive.name)
            if d is None:
                new_drives.setdefault(r.drive.name, r.drive)
            elif d is not r.drive and d != r.drive:
                return False
            f = raids.get(r.raid.name)
            if f is None:
                new_raids.setdefault(r.raid.name, r.raid)
            elif f is not r.raid and f != r.raid:
                return False
        drives.update(new_drives)
        raids.update(new_raids)
        return True

    def trim(self) -> None:
        """Forget the costs by span when there are many (a long search's ceilings probe
        spans without end); what does not depend on the span is kept."""
        if len(self.cache) + len(self.tables) >= _MEMO_SPANS_KEPT:
            self.cache.clear()
            self.tables.clear()
        if len(self.gains) + len(self.work) >= _MEMO_SPANS_KEPT:
            self.gains.clear()
            self.work.clear()
        if len(self.derived) >= _DERIVED_KEPT:
            self.derived.clear()
        if len(self.busy) >= _MEMO_SPANS_KEPT:
            self.busy.clear()


_MEMO_SPANS_KEPT = 8192
_DERIVED_KEPT = 256
_MEMOS_KEPT = 64
_memos: Kept[list[_CostMemo]] = Kept(buckets=_MEMOS_KEPT, per_bucket=4)
"""Per (`CostInputs`, each workload's `cost_inputs`), the memos of the configurations asked for
with them: a few, for names that stand for different figures in different systems."""


def _memo_for(
    inputs: CostInputs, workloads: tuple[tuple[object, ...], ...], config: Configuration
) -> _CostMemo:
    """The memo `config`'s costs share with every configuration asked for before with the same
    `inputs` and workloads' cost inputs (`workloads`, `OpCosts.cost_inputs` of each) whose
    drive and RAID format names stand for the same figures: every figure in it is then
    `config`'s, to the bit (each a function of its key). A new one reads its shapes before an
    ordered destage's sort set from the memo of every NVS per rank (`_CostMemo.nvs_free`):
    shared in the same way by the configurations with the same `inputs` but for the rank's
    NVS (kept in `_memos` too, under a bucket of their own)."""
    bucket = (inputs.servers, inputs.rank_nvs_bytes, inputs.ordered_destage, inputs.planned)
    memo, made = _kept_memo(bucket, (inputs, workloads), config)
    if not made:
        memo.trim()
        return memo
    any_nvs = ("any NVS", inputs.servers, inputs.ordered_destage, inputs.planned)
    memo.nvs_free, _ = _kept_memo(any_nvs, (inputs._replace(rank_nvs_bytes=0.0), workloads), config)
    return memo


def _kept_memo(
    bucket: tuple[object, ...], key: tuple[object, ...], config: Configuration
) -> tuple[_CostMemo, bool]:
    """The memo kept under `bucket` and `key` (`_memos`) whose drive and RAID format names
    stand for `config`'s figures, and False; or a new one, kept there, and True."""
    memos = _memos.get(bucket, key, list)
    for memo in memos:
        if memo.takes(config.ranks):
            return memo, False
    memo = _CostMemo()
    memo.takes(config.ranks)
    memos.append(memo)
    del memos[:-_MEMO_VARIANTS_KEPT]
    return memo, True


_MEMO_VARIANTS_KEPT = 4


def forget_costs() -> None:
    """Forget the memos shared between configurations, the drives' gains and the
    configurations' fronts (`layout.forget_placements` calls it)."""
    _memos.clear()
    _drive_gains.clear()
    _fronts.clear()


_GAINS_KEPT = 4096
_drive_gains: dict[tuple[object, ...], tuple[Drive, FloatArray]] = {}
"""Drive gains (`drive_gain`) by the drive as installed (held, by identity, as `_span_costs`),
the queue and the grid point: configurations whose costs are not shared (another NVS per rank,
another planned rate) have the same drives on the same grid."""


def _kept_gain(rank: Rank, span: float, depth: int, positioning_share: float | None) -> FloatArray:
    """`drive_gain`, kept in `_drive_gains` (it reads only the rank's drive)."""
    return _by_drive(
        _drive_gains,
        _GAINS_KEPT,
        rank.drive,
        (depth, *_gain_grid(span, positioning_share)),
        lambda: drive_gain(rank, span, depth, positioning_share),
    )


def _by_drive(
    store: dict[tuple[object, ...], tuple[Drive, V]],
    limit: int,
    d: Drive,
    key: tuple[object, ...],
    make: Callable[[], V],
) -> V:
    """`make()`, kept in `store` by the drive as installed (held beside the value, so that its
    identity is not reused while kept) and `key`; the store is emptied when it holds `limit`.
    `cached.kept_by_identity` for one held object, written out: a calibration asks tens of
    thousands of times, and this takes 156 ns a lookup against its 358 ns."""
    full_key = (id(d), *key)
    kept = store.get(full_key)
    if kept is not None and kept[0] is d:
        return kept[1]
    value = make()
    if len(store) >= limit:
        store.clear()
    store[full_key] = (d, value)
    return value


_SPAN_COSTS_KEPT = 16384
_span_costs: dict[tuple[object, ...], tuple[Drive, OpCost]] = {}
"""One operation's cost on a drive at a span (`_span_cost`), by the drive as installed (held, so
its identity is not reused: `Catalog.installed_drive` gives one object per catalog entry and
system), the operation and the span: a calibration's evaluations and the catalog band's
solves ask for the same ones again and again (36,288 asks, 5,330 distinct, in the documented
calibration)."""


def _span_cost(op: OpShape, d: Drive, span: float) -> OpCost:
    """One operation of shape `op` on drive `d` with its data over the fraction `span` of
    the drive: its service moments and the part of them that is positioning."""
    transfer = drive.transfer_s(d, op.drive_bytes)
    overhead = d.controller_overhead_ms * drive.MS
    if op.sequential:
        moments = drive.sequential_op(d, op.drive_bytes, op.write, span, op.share)
        fixed = transfer + (1.0 - op.share) * overhead  # a contiguous one overlaps it
    elif op.pending is not None:
        # Destages are ordered (IWC): each stop of the sweep seeks to the nearest pending
        # destage of its drive (components.destage, DOMAIN.md C12).
        moments = destage.ordered_destage_op(
            d, op.size_bytes, span, op.pending, op.write, sweep_share=op.share
        )
        fixed = transfer + overhead
    else:
        moments = drive.random_op(d, op.size_bytes, span, op.write)
        fixed = transfer + overhead
    positioning = 0.0 if d.kind == "ssd" else max(moments.mean_s - fixed, 0.0)
    return OpCost(
        op.io_class, op.count, op.size_bytes, op.write, op.sequential, moments, op.da,
        positioning,
    )  # fmt: skip


def costed_span(d: Drive, span: float) -> float:
    """The span the costs of an operation on drive `d` with its data on `span` are computed
    and kept at (`OpCosts.of`, `op_table`). An HDD's: the span rounded to the keys' 9 digits
    (computed at the exact span, whichever span within 5e-10 came first would set the costs
    for the others, and a result would depend on the order the placement search asked in).
    An SSD's: 1, whatever the span: no positioning, so nothing of its services depends on
    where its data lie (`drive.random_op`, `sequential_op`, `destage.ordered_destage_op` and
    `_span_cost` read the span only for an HDD), and a search for the SSD tier's load
    ceiling, whose every probe moves that tier's span, costs its operations once."""
    return 1.0 if d.kind == "ssd" else round(span, 9)


def mix_key(mix: IoMix) -> tuple[object, ...]:
    """Every field of `mix`, hashable (its class fractions as sorted pairs)."""
    return tuple(
        tuple(sorted(value.items())) if isinstance(value, dict) else value
        for value in (getattr(mix, f.name) for f in dataclasses.fields(mix))
    )


def _backend_ops(
    io_class: IoClass, rank: Rank, size: float, destage_ratio: float
) -> list[raid.DriveOps]:
    if io_class == "read_miss":
        return raid.read_miss_ops(rank.raid, size)
    if io_class == "sequential_read":
        return raid.prefetch_ops(rank.raid, size)
    if io_class == "random_write":
        return raid.random_destage_ops(rank.raid, size, destage_ratio)
    if io_class == "sequential_write":
        return raid.sequential_destage_ops(rank.raid, size, destage_ratio)
    return []  # read hits never reach the back end


def drive_work_at(utilization: float, gain: FloatArray) -> float:
    """Offered work (arrival rate x queue-length-one service) at which a drive with command
    queueing gain `gain` is busy the fraction `utilization` of the time (`OpCosts.work_at`
    memoises it per configuration)."""
    return load_dependent_rate_at(float(utilization), np.ascontiguousarray(gain, np.float64))


# The command-queueing gain is looked up on a grid of data spans (1% of the stroke) and of
# positioning shares (0.1%): it changes by a few per cent over the whole stroke, so the grid
# moves it by well under 0.1%, and a curve whose placement follows the load then asks for a few
# dozen gains instead of one per load.
_GRID = 100
_SHARE_GRID = 1000


def queue_limit(rank: Rank, commands_per_hdd: int) -> int:
    """The most requests one of the rank's drives holds: an HDD its own command queue or the
    device adapter's commands per HDD, whichever is fewer (what it may reorder); an SSD its own
    queue (the adapter keeps its flash units busy: the shallow HDD queue is there so that the
    cache's destage order holds, which an SSD does not need)."""
    if rank.drive.kind == "ssd":
        return max(1, rank.drive.command_queue_depth)
    return max(1, min(rank.drive.command_queue_depth, commands_per_hdd))


def drive_gain(
    rank: Rank, span: float, depth: int, positioning_share: float | None = None
) -> FloatArray:
    """alpha(1..depth) of one of the rank's drives with its data on `span`, `depth` the queue
    it may reorder (`queue_limit`). HDD: for work of which `positioning_share` of the busy time
    is positioning (`drive.mixed_gain`; by default a 4 KiB random read's, the host-visible
    operation at a rank). SSD: its parallel flash units. Computed at the grid point nearest
    (`_gain_grid`); read-only (`OpCosts.gain` shares it between callers)."""
    grid, share = _gain_grid(span, positioning_share)
    if rank.drive.kind == "ssd" or positioning_share is None:
        gain = drive.command_queueing_gain(rank.drive, drive.GAIN_READ_BYTES, grid, False, depth)
    else:
        gain = drive.mixed_gain(drive.relative_positioning(rank.drive, grid, depth), share)
    gain.setflags(write=False)
    return gain


def _gain_grid(span: float, positioning_share: float | None) -> tuple[float, float]:
    """The grid point a gain is computed at: the span to `_GRID`, the positioning share to
    `_SHARE_GRID` (-1: none given)."""
    grid = max(round(span * _GRID), 1) / _GRID
    share = (
        -1.0 if positioning_share is None else round(positioning_share * _SHARE_GRID) / _SHARE_GRID
    )
    return grid, share
