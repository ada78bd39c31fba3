"""Open solution: every station fed a Poisson stream (Jackson decomposition), vectorised over
loads.

The stations are those the closed solution uses (`diskmodel.model.network`): host ports and
DA pairs M/G/1, servers M/G/c, each drive a load-dependent station that serves faster as its
queue grows (command queueing; `queueing.station.load_dependent`): the product-form wait of
each, scaled by the station's (1 + scv) / 2 (`Network.wait_factor`; Pollaczek-Khinchine, exact
for one server with a constant rate). A host-visible class's
response = sum over stations of its own service there x (the station's speed factor + its wait
ratio) + the front end's fixed delay (`network.front_end_delay_s`). The wait ratio (mean wait /
mean service) makes a class wait in proportion to its own service, as at a processor-sharing
station: with operations of different lengths at one station (reads and ordered destages at a
drive, SSD reads and writes) this is the product-form (BCMP) station the closed solution's MVA
solves, so the open and the closed solution agree; a FCFS station would make every class wait
behind the mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.model.device_queue import device_queue_s
from diskmodel.model.network import Network, per_load
from diskmodel.queueing.station import load_dependent_state, mm1_state, mmc_state

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class StationStates:
    """Per-station state [K, P] at P loads: utilisation (busy fraction of one server or drive),
    mean wait per visit, effective service time per operation (utilisation = arrival rate x
    service / servers), its ratio to the queue-length-one service (`speed_factor`: below 1 on
    a drive with a queue), and which stations are saturated."""

    arrival: FloatArray
    utilization: FloatArray
    wait_s: FloatArray
    service_s: FloatArray
    speed_factor: FloatArray
    saturated: BoolArray
    wait_ratio: FloatArray  # wait per second of own queue-length-one service (0 if saturated)
    rates: FloatArray | None = None  # [W, P] the host rates solved for (the device queues')


def station_states(net: Network, rates: ArrayLike) -> StationStates:
    """Every station's state when the workloads run at host `rates` [W] or [W, P]."""
    r, lam, busy = _offered(net, rates)
    mean_s = _mean_service(lam, busy)
    K, P = lam.shape
    util = np.zeros((K, P))
    wait = np.zeros((K, P))
    service = mean_s.copy()
    single, multi, drives, gains = net.solved_as
    servers = net.servers
    # The stations' own states alone (`mm1_state`...): the rates and times here are sums of
    # products of figures >= 0, and the drives' gains finite and > 0 (`Network.solved_as`).
    if single:
        util[single], wait[single] = mm1_state(lam[single], mean_s[single])
    if multi:
        util[multi], wait[multi] = mmc_state(lam[multi], mean_s[multi], servers[multi, None])
    if drives:
        util[drives], wait[drives], service[drives] = load_dependent_state(
            lam[drives], mean_s[drives], gains[:, None, :]
        )
    wait, factor, saturated, ratio = _beyond_one(wait, service, mean_s, net.wait_factor[:, None])
    return StationStates(lam, util, wait, service, factor, saturated, ratio, r)


def _offered(net: Network, rates: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The host rates [W, P] (checked) and each station's arrivals at one server or drive and
    offered work at queue length one [K, P]."""
    r = np.asarray(rates, dtype=np.float64)
    if r.ndim == 1:
        r = r[:, None]
    if not (r >= 0).all():  # NaN too: the stations' states below check nothing more
        raise ValueError(f"host rates must be >= 0 and not NaN, got {r.tolist()!r}")
    return r, per_load(net.arrival.T, r), per_load(net.work.T, r)


def _offered_stacked(
    nets: Sequence[Network], rates: Sequence[FloatArray]
) -> tuple[FloatArray, FloatArray]:
    """`_offered`'s arrivals and offered work of several networks at loads of one width,
    one network's stations under the other's [sum of K, P]. Networks of one workload each
    (W = 1) have them worked out all at once: a matrix of one column times a load is one
    product per entry, which BLAS adds to a zeroed output (0 + x: a -0 product becomes +0),
    so the products of all their stations, plus 0, are `per_load`'s to the bit (tested)."""
    if all(r.shape[0] == 1 for r in rates) and (np.concatenate(rates) >= 0).all():
        sizes = [net.arrival.shape[1] for net in nets]
        per_row = np.repeat(np.concatenate(rates), sizes, axis=0)  # [sum K, P]
        lam = np.concatenate([net.arrival.T for net in nets]) * per_row + 0.0
        return lam, np.concatenate([net.work.T for net in nets]) * per_row + 0.0
    offered = [_offered(net, r) for net, r in zip(nets, rates, strict=True)]  # checked there
    return np.concatenate([o[1] for o in offered]), np.concatenate([o[2] for o in offered])


def _mean_service(lam: FloatArray, busy: FloatArray) -> FloatArray:
    """The mean service at queue length one (0 where nothing arrives)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(lam > 0, busy / np.where(lam > 0, lam, 1.0), 0.0)


def _beyond_one(
    wait: FloatArray, service: FloatArray, mean_s: FloatArray, wait_factor: FloatArray
) -> tuple[FloatArray, FloatArray, BoolArray, FloatArray]:
    """The stations' waits for non-exponential service, their speed factors, which saturate
    and their wait ratios, from the product form's waits and services (elementwise: one
    network's [K, P] or many networks' entries, flat).

    Non-exponential service (Network.wait_factor): the response beyond the queue-length-one
    service times (1 + scv) / 2. At a constant-rate station that is the wait (Pollaczek-
    Khinchine); at an SSD's parallel flash units a request is served for its whole time once
    a unit takes it; at a drive that reorders, the queue's speed-up is kept as the product
    form gives it and only the time beyond one request's service is shortened, so a response
    is never below the queue-length-one service."""
    saturated = ~np.isfinite(wait)
    with np.errstate(invalid="ignore"):
        queued = np.maximum(wait + service - mean_s, 0.0)
        shorter = np.maximum(wait - (1.0 - wait_factor) * queued, 0.0)
        wait = np.where(saturated, wait, shorter)
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = np.where(mean_s > 0, service / np.where(mean_s > 0, mean_s, 1.0), 1.0)
        ratio = np.where((mean_s > 0) & ~saturated, wait / np.where(mean_s > 0, mean_s, 1.0), 0.0)
    return wait, factor, saturated, ratio


def station_states_many(asks: Sequence[tuple[Network, FloatArray]]) -> list[StationStates]:
    """`station_states` of many networks at their loads [W, P] (each its own W and P), solved
    together: the arrivals and work of each network are its own product with its rates (the
    same products `station_states` takes; those of one workload's networks all at once,
    `_offered_stacked`); the networks with the same number of loads are stacked, station
    under station ([sum of K, P]: `_Stack`), and every entry of every stack is one entry of
    flat arrays, in which each kind of station (one server, several, a drive's load-dependent
    queue with gains of one depth) is solved in one pass over all of them. Every step past
    the products is elementwise, or a reduction along a drive's own gains, so each network's
    states are those `station_states` gives it, to the bit (tested); what is saved is the
    fixed cost of some thirty array operations per network (the sizing search solves many
    small networks at one load and at its growth periods',
    `analyses.size_try.try_configurations`)."""
    if len(asks) <= 1:
        return [station_states(*ask) for ask in asks]
    by_width: dict[int, list[int]] = {}
    rates = []
    for i, (_, given) in enumerate(asks):
        r = np.asarray(given, dtype=np.float64)
        rates.append(r if r.ndim == 2 else r[:, None])
        by_width.setdefault(rates[-1].shape[1], []).append(i)
    stacks = [
        _Stack.of([asks[i][0] for i in held], [rates[i] for i in held])
        for held in by_width.values()
    ]
    starts = np.cumsum([0] + [s.lam.size for s in stacks[:-1]]).tolist()
    lam = np.concatenate([s.lam.reshape(-1) for s in stacks])
    mean_s = _mean_service(lam, np.concatenate([s.busy.reshape(-1) for s in stacks]))
    util = np.zeros(lam.size)
    wait = np.zeros(lam.size)
    service = mean_s.copy()
    single = np.concatenate(
        [s.entries(s.single) + at for s, at in zip(stacks, starts, strict=True)]
    )
    multi = np.concatenate([s.entries(s.multi) + at for s, at in zip(stacks, starts, strict=True)])
    if single.size:
        util[single], wait[single] = mm1_state(lam[single], mean_s[single])
    if multi.size:
        servers = np.concatenate([np.repeat(s.servers, s.width) for s in stacks])
        util[multi], wait[multi] = mmc_state(lam[multi], mean_s[multi], servers)
    for depth in sorted({d for s in stacks for d in s.drives}):
        deep = [(s, at) for s, at in zip(stacks, starts, strict=True) if depth in s.drives]
        drives = np.concatenate([s.entries(s.drives[depth][0]) + at for s, at in deep])
        gains = np.concatenate([np.repeat(s.drives[depth][1], s.width, axis=0) for s, _ in deep])
        util[drives], wait[drives], service[drives] = load_dependent_state(
            lam[drives], mean_s[drives], gains
        )
    wait_factor = np.concatenate([np.repeat(s.wait_factor, s.width) for s in stacks])
    wait, factor, saturated, ratio = _beyond_one(wait, service, mean_s, wait_factor)
    out: dict[int, StationStates] = {}
    for s, at, held in zip(stacks, starts, by_width.values(), strict=True):
        cut = slice(at, at + s.lam.size)
        util_s, wait_s, service_s, factor_s, ratio_s = (
            a[cut].reshape(s.lam.shape) for a in (util, wait, service, factor, ratio)
        )
        saturated_s = saturated[cut].reshape(s.lam.shape)
        for i, rows in zip(held, s.rows, strict=True):
            out[i] = StationStates(
                s.lam[rows],
                util_s[rows],
                wait_s[rows],
                service_s[rows],
                factor_s[rows],
                saturated_s[rows],
                ratio_s[rows],
                rates[i],
            )
    return [out[i] for i in range(len(asks))]


@dataclass(frozen=True)
class _Stack:
    """Networks at the same number of loads (`width`), their stations stacked one network
    under the other: each network's rows, the arrivals and offered work [rows, width], the
    rows of each kind of station (the drives' by the depth of their gains, with the gains),
    the multi-server rows' servers and every row's wait factor."""

    width: int
    rows: list[slice]
    lam: FloatArray
    busy: FloatArray
    single: NDArray[np.int64]
    multi: NDArray[np.int64]
    servers: FloatArray
    drives: dict[int, tuple[NDArray[np.int64], FloatArray]]
    wait_factor: FloatArray

    @classmethod
    def of(cls, nets: Sequence[Network], rates: Sequence[FloatArray]) -> _Stack:
        """The networks at their loads [W, P] (checked: `_offered_stacked`), stacked."""
        sizes = [net.arrival.shape[1] for net in nets]
        starts = np.cumsum([0, *sizes[:-1]])
        entries = [net.open_entries for net in nets]
        gains = [net.solved_as[3] for net in nets]
        by_depth: dict[int, list[int]] = {}
        for k, (g, e) in enumerate(zip(gains, entries, strict=True)):
            if e[3].size:
                by_depth.setdefault(g.shape[1], []).append(k)
        return cls(
            rates[0].shape[1],
            [slice(a, a + n) for a, n in zip(starts.tolist(), sizes, strict=True)],
            *_offered_stacked(nets, rates),
            _rows([e[0] for e in entries], starts),
            _rows([e[1] for e in entries], starts),
            np.concatenate([e[2] for e in entries]),
            {
                depth: (
                    _rows([entries[k][3] for k in held], starts[held]),
                    np.concatenate([gains[k] for k in held]),
                )
                for depth, held in by_depth.items()
            },
            np.concatenate([e[4] for e in entries]),
        )

    def entries(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """The flat entries (row * width + load) of `rows` at every load."""
        if self.width == 1:
            return rows
        return (rows[:, None] * self.width + np.arange(self.width)).reshape(-1)


def _rows(stations: Sequence[NDArray[np.int64]], starts: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each network's station indices offset by its first row among the stacked stations."""
    lengths = [len(s) for s in stations]
    return np.concatenate(stations) + np.repeat(starts, lengths)


def class_responses(net: Network, states: StationStates) -> FloatArray:
    """Host-visible response per (workload, class) [G, P]: each visit's own service at the
    station's current speed and a wait in proportion to that service (processor-sharing
    semantics, `wait_ratio`), plus the fixed delay; inf for a class that visits a saturated
    station."""
    below = storage_responses(net, states)
    if net.config.hardware.ficon is None or states.rates is None:
        return below
    # z/OS workloads queue for their devices above the storage (IOSQ, `model.device_queue`):
    # every class of a workload waits its device queue's mean wait.
    _, owners = net.class_shares
    return below + device_queue_s(net.config, states.rates, downstream_s(net, below))[owners]


def storage_responses(net: Network, states: StationStates) -> FloatArray:
    """`class_responses` below z/OS: the storage's own response per (workload, class) [G, P],
    inf for a class that visits a saturated station (a z/OS I/O's PEND + DISC + CONN)."""
    per_class = storage_responses_free(net, states.wait_ratio + states.speed_factor)
    # The count of saturated stations visited is exact in any order: not `per_load`.
    blocked = net.visited @ states.saturated.astype(np.float64) > 0
    return np.where(blocked, np.inf, per_class)


def storage_responses_free(net: Network, ratio_and_speed: FloatArray) -> FloatArray:
    """`storage_responses` where no station is saturated, from the stations' wait ratios
    plus their speed factors [K, P]."""
    times = net.times
    return per_load(times.service_s, ratio_and_speed) + times.delay_s[:, None]


def downstream_s(net: Network, per_class: FloatArray) -> FloatArray:
    """Each workload's mean time below z/OS [W, P] from its classes' responses [G, P] there
    (the I/O's PEND + DISC + CONN, the device queue's service): by the classes' shares."""
    fractions, owners = net.class_shares
    out = np.zeros((len(net.workloads), per_class.shape[1]))
    with np.errstate(invalid="ignore"):
        np.add.at(out, owners, fractions[:, None] * per_class)
    return out


def class_rates(net: Network, rates: FloatArray) -> FloatArray:
    """Host I/O per second of each (workload, class) [G, P]."""
    fractions, owners = net.class_shares
    if owners.size == 0:
        return np.zeros((0, rates.shape[1]))
    return fractions[:, None] * rates[owners]
