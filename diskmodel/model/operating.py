"""Operating points: one configuration at one load, placed and solved.

`Solver(config)` is the only way into the model for the analyses. For an open load (a rate per
workload) `open_point` places the data for that load (`model.layout`), builds the network and
solves it (`model.open`); for a closed load (a population) `closed_point` does the same at the
rate the closed workloads settle at, found by iterating placement and the closed solution
(`model.closed`) to a fixed point. Every view of a configuration at a load (the planned point,
each curve point, the maximum, growth, sweeps, alternatives) is one of these calls, so they
all give the same number for the same load.

Placement depends on the load only in Easy Tier pools with two or more tiers, and there only
once a tier's load ceiling binds; below that, one network serves every load with the same mix
(networks are cached by the placement they were built for).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from operator import attrgetter

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.cached import cached_property, kept_by_identity
from diskmodel.components import cache
from diskmodel.configuration import Configuration, Hardware, WorkloadConfig
from diskmodel.model.application import TransactionState, transactions
from diskmodel.model.closed import ClosedState
from diskmodel.model.closed_point import closed_figures, closed_load, settled
from diskmodel.model.costs import OpCosts
from diskmodel.model.device_limit import queues_carry
from diskmodel.model.kept import Kept
from diskmodel.model.layout import (
    PoolLayout,
    forget_also,
    free_headroom,
    layout_and_headroom,
    network_key,
    placements_for,
)
from diskmodel.model.network import Network, dirty_bytes_near
from diskmodel.model.network_build import NetworkBuilder, network_for, without_front_end
from diskmodel.model.open import (
    StationStates,
    class_responses,
    station_states,
    station_states_many,
    storage_responses_free,
)
from diskmodel.model.pool_load import PoolsTimed
from diskmodel.model.saturation import saturating_load

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

# Networks kept per solver (a curve needs one per load once Easy Tier's ceilings bind).
_CACHE_SIZE = 512
# Loads within this (relative) of the rate at which a ceiling starts to bind are placed by the
# search itself, so rounding never decides which side of it a load is on.
_FREE_MARGIN = 1e-6
# All the dirty data under this (relative) margin below a server's or a rank's NVS limit leave
# every part of them under it: the sums' rounding (some 1e-14 of a sum of a hundred terms >= 0)
# cannot carry a part over (`Solver._nvs_full`).
_NVS_MARGIN = 1e-9


@dataclass(frozen=True)
class OperatingPoint:
    """A configuration at one load: the network as placed for it, the per-workload host rates,
    per-station state [K] and per host-visible class response [G] (inf where the class visits
    a saturated station or writes wait for a full NVS), and the closed solution when the load
    is a population."""

    network: Network
    rates: FloatArray
    arrival: FloatArray
    utilization: FloatArray
    wait_s: FloatArray
    service_s: FloatArray
    speed_factor: FloatArray
    station_saturated: BoolArray
    class_response_s: FloatArray
    saturated: bool
    nvs_full: bool
    wait_ratio: FloatArray  # [K] wait per second of a visit's own service (processor sharing)
    closed: ClosedState | None = None
    transactions: TransactionState | None = None

    @property
    def total_iops(self) -> float:
        return float(self.rates.sum())

    @cached_property
    def response_s(self) -> float:
        """Mean response over all host I/O (inf where unknown). A purely closed load: N / X - Z
        (Little), known even when NVS is full and the split of the extra wait is not. Worked
        out once per point (the limits and the sizing read it several times)."""
        if self.closed is not None and self._all_closed:
            return self.closed.response_s
        fractions, owners = self.network.class_shares
        # `open.class_rates` at this one load
        return _mean_response(fractions * self.rates[owners], self.class_response_s)

    @property
    def _all_closed(self) -> bool:
        return all(w.is_closed for w in self.network.workloads)

    @property
    def busiest(self) -> int:
        """The station with the highest utilisation."""
        return int(self.utilization.argmax())


def _mean_response(weights: FloatArray, per_class: FloatArray) -> float:
    """The mean of the classes' responses `per_class` weighted by their I/O rates `weights`
    (0 with no I/O; inf where a class with I/O has no known response)."""
    total = float(weights.sum())
    if total <= 0:
        return 0.0
    used = weights > 0
    responses = per_class[used]
    if not np.isfinite(responses).all():
        return float("inf")
    return float(weights[used] @ responses / total)


_DEFAULTS = {f.name: f.default for f in fields(OperatingPoint) if f.default is not MISSING}
"""`OperatingPoint`'s fields that have defaults (no closed solution, no transactions)."""


def _open_point(**given: object) -> OperatingPoint:
    """`OperatingPoint(**given)` of an open load (its defaulted fields at their defaults), its
    fields set as its `__init__` sets them, without it (a frozen dataclass sets each field
    through `object.__setattr__`: a curve or a growth table makes a point per load)."""
    point = object.__new__(OperatingPoint)
    point.__dict__.update(_DEFAULTS, **given)
    return point


@dataclass(frozen=True)
class OpenLoads:
    """One network's open operating points at loads r [W, P], as arrays over the loads: each
    field `OperatingPoint`'s with a column per load ([K, P] per station, [G, P] per class, [P]
    whether saturated and whether NVS is full). The sizing search reads its configurations'
    loads in this form (`analyses.size_try`), an object per load was most of its summing up;
    `point(p)` is the p-th load's `OperatingPoint`, to the bit, made only where asked."""

    network: Network
    rates: FloatArray
    arrival: FloatArray
    utilization: FloatArray
    wait_s: FloatArray
    service_s: FloatArray
    speed_factor: FloatArray
    station_saturated: BoolArray
    class_response_s: FloatArray
    saturated: BoolArray
    nvs_full: BoolArray
    wait_ratio: FloatArray

    def point(self, p: int) -> OperatingPoint:
        """The operating point of the p-th load."""
        return _open_point(
            network=self.network,
            rates=self.rates[:, p].copy(),
            arrival=self.arrival[:, p],
            utilization=self.utilization[:, p],
            wait_s=self.wait_s[:, p],
            service_s=self.service_s[:, p],
            speed_factor=self.speed_factor[:, p],
            station_saturated=self.station_saturated[:, p],
            class_response_s=self.class_response_s[:, p],
            saturated=bool(self.saturated[p]),
            nvs_full=bool(self.nvs_full[p]),
            wait_ratio=self.wait_ratio[:, p],
        )

    def points(self) -> list[OperatingPoint]:
        """The operating point of each load, in order."""
        return [self.point(p) for p in range(self.rates.shape[1])]

    @property
    def width(self) -> int:
        """How many loads."""
        return int(self.rates.shape[1])


def open_responses(many: Sequence[OpenLoads]) -> list[float]:
    """`OperatingPoint.response_s` of every load of `many` (each one network's loads), in
    order, to the bit, worked out for all of them at once: each load's classes' weights a
    row, summed as a point sums its own (a row's sum is the sum of that row alone), and the
    weighted responses of the loads whose classes are all used and known a dot product each
    in one stacked product (each is the dot product a point takes); any other load's as a
    point works it out (`_mean_response`)."""
    if not many:
        return []
    rates, fractions, owners, responses = [], [], [], []
    for loads in many:
        share, owner = loads.network.class_shares
        rates.append(loads.rates.T)
        fractions += [share] * loads.width
        owners += [owner] * loads.width
        responses.append(loads.class_response_s.T)
    if len({len(f) for f in fractions}) > 1:  # networks of different classes: each alone
        return [r for loads in many for r in open_responses_each(loads)]
    weights = np.take_along_axis(np.concatenate(rates), np.array(owners), axis=1) * np.array(
        fractions
    )  # [loads, classes]
    per_class = np.concatenate(responses)
    totals = weights.sum(axis=1)
    used = weights > 0
    unknown = (used & ~np.isfinite(per_class)).any(axis=1)
    live = ~(totals <= 0)  # none: 0
    whole = used.all(axis=1) & ~unknown & live
    out = np.zeros(len(totals))
    out[unknown & live] = np.inf
    if whole.any():
        dots = np.matmul(weights[whole][:, None, :], per_class[whole][:, :, None])[:, 0, 0]
        out[whole] = dots / totals[whole]
    for j in np.flatnonzero(~whole & ~unknown & live):  # some classes unused
        out[j] = _mean_response(weights[j], per_class[j])
    return out.tolist()


def open_responses_each(loads: OpenLoads) -> list[float]:
    """`OperatingPoint.response_s` of each load of `loads`, point by point."""
    return [point.response_s for point in loads.points()]


def _mix(r: FloatArray, total: float) -> tuple[float, ...]:
    """The rates' ratios to their `total` (> 0), rounded to 12 decimals as numpy's `round`
    rounds them (times 1e12, to the nearest integer, ties to even, over 1e12), in Python floats
    (the same floats; numpy's fixed cost per call was most of a load's placement look-up)."""
    if not math.isfinite(total):
        return tuple((r / total).round(12).tolist())
    return tuple(round(v / total * 1e12) / 1e12 for v in r.tolist())


class Solver:
    """Operating points of one configuration, sharing its operation costs and networks (with
    the configurations that build the same networks: `builds_for`)."""

    def __init__(self, config: Configuration) -> None:
        self.config = config
        self._builds = builds_for(config)
        self.costs = self._builds.costs
        self._placements = placements_for(config, self.costs)
        # The networks this solver was given, by id (each held), with their placement's key in
        # `Builds.networks` (`_built`), so that a load solved alone on one reads and writes
        # `Builds.points`.
        self._built_keys: dict[int, tuple[Network, tuple[object, ...]]] = {}
        self._networks: dict[tuple[object, ...], Network] = {}
        # Per mix (rate ratios): the total rate up to which no Easy Tier ceiling binds.
        self._free_up_to: dict[tuple[object, ...], float] = {}
        # Per mix: the first free load, whose headroom is worked out only when a second load
        # of the mix asks (a single-load solve, e.g. a calibration evaluation, never needs it).
        self._free_first: dict[tuple[object, ...], FloatArray] = {}
        self.follows_load = any(
            p.placement_follows_load
            for p in config.pools
            if any(w.pool == p.name for w in config.workloads)
        )

    # ----------------------------------------------------------------------- networks

    def network(self, rates: ArrayLike) -> Network:
        """The network with the data placed for the host `rates` (one per workload)."""
        return self._placed(rates)[0]

    def _placed(self, rates: ArrayLike) -> tuple[Network, bool]:
        """The network placed for `rates`, and whether other loads may share it (the placement
        that ignores the load: every load of a mix where placement does not follow the load,
        and where it does, every load below the first Easy Tier ceiling); a placement made for
        one load where a ceiling binds is that load's own (its network is shared with the
        loads whose placements are the same, `network_key`, but it is solved alone)."""
        r = np.asarray(rates, dtype=np.float64)
        total = float(r.sum())
        ratios = _mix(r, total) if total > 0 else tuple(r.tolist())
        free_key: tuple[object, ...] = ("ratios", ratios)
        if not self.follows_load and free_key in self._networks:
            return self._networks[free_key], True
        if self.follows_load:
            # Below the rate at which the first Easy Tier ceiling binds, every load of this
            # mix shares the placement that ignores the load: no placement search needed.
            free = self._free_up_to.get(ratios)
            if free is None and ratios in self._free_first:
                first = self._free_first.pop(ratios)
                exact = first.tobytes()
                headroom = self._placements.headroom.get(exact)
                if headroom is None:
                    headroom = free_headroom(self.config, first, self.costs, self._timed())
                    self._placements.headroom[exact] = headroom
                free = float(first.sum()) * headroom
                free *= 1 - _FREE_MARGIN
                self._free_up_to[ratios] = free
            if free is not None and total <= free and ("free", ratios) in self._networks:
                return self._networks[("free", ratios)], True
        key: tuple[object, ...] = free_key
        if self.follows_load:  # a load placed for itself is kept by its rates
            key = ("rates", tuple(float(f"{v:.12g}") for v in r.tolist()))
            if key in self._networks:
                return self._networks[key], False
        exact = r.tobytes()
        placed = self._placements.layouts.get(exact)
        if placed is None:
            placed, room = layout_and_headroom(self.config, r, self.costs, self._timed())
            self._placements.layouts[exact] = placed
            if self.follows_load and not math.isnan(room):
                # The placement ignores the load here: its headroom came with it, so the
                # mix's free limit (`free_headroom`, above) costs nothing more.
                self._placements.headroom[exact] = room
        if self.follows_load and not any(p.bound for p in placed.values()):
            # No ceiling binds: the placement is the one every load of this mix shares.
            key = ("free", ratios)
            if total > 0 and ratios not in self._free_up_to and ratios not in self._free_first:
                # A margin under the exact limit, where the placement search decides (worked
                # out above, from this load, when the mix is asked again).
                self._free_first[ratios] = r.copy()
            if key in self._networks:
                return self._networks[key], True
        # A placement made for this load may still be another load's: a tier held to a
        # ceiling of 0 places the same data at every load (the loads then share a network,
        # each still solved alone).
        own = key[0] == "rates"
        placed_key = network_key(placed)
        same: tuple[object, ...] = ("placement", placed_key) if own else ()
        net = self._networks.get(same) if own else None
        if net is None:
            net = self._built(placed, placed_key)
        if len(self._networks) > _CACHE_SIZE:
            self._networks.clear()
            self._built_keys.clear()  # a network no longer held solves its points alone
        self._networks[key] = net
        if own:
            self._networks[same] = net
        return net, not own

    def _timed(self) -> PoolsTimed:
        """The pools timed at loads for this configuration's builds (`Builds.pools`)."""
        pools = self._builds.pools
        if len(pools) >= _POOLS_KEPT:
            pools.clear()
        return pools

    def _built(self, placed: Mapping[str, PoolLayout], placed_key: tuple[object, ...]) -> Network:
        """The network of this configuration at `placed` (`network_key(placed)` is
        `placed_key`): built once for every configuration that shares this one's builds
        (`builds_for`), and made this configuration's own (`network_build.network_for`)."""
        builds = self._builds
        shared = builds.networks.get(placed_key)
        if shared is None:
            if len(builds.networks) >= _NETWORKS_KEPT:
                builds.networks.clear()
                builds.points.clear()
            shared = builds.networks[placed_key] = builds.builder.build(placed)
        net = network_for(shared, self.config, placed)
        self._built_keys[id(net)] = (net, placed_key)
        return net

    # ----------------------------------------------------------------------- loads

    def planned_rates(self) -> FloatArray:
        """The open workloads' planned rates (0 for closed ones)."""
        return np.array([w.iops or 0.0 for w in self.config.workloads], dtype=np.float64)

    def closed_weights(self) -> FloatArray:
        """Each closed workload's share of the closed class (by population, or by I/Os per
        transaction for an application's workloads; 0 for open ones)."""
        if self.config.application is not None:
            raw = np.array([w.ios_per_transaction or 0.0 for w in self.config.workloads])
        else:
            raw = np.array([float(w.population or 0) for w in self.config.workloads])
        total = raw.sum()
        return raw / total if total > 0 else raw

    def closed_population(self) -> int:
        """The scenario's closed load: the application's users, or the closed workloads'
        populations (queue depths and users) together."""
        app = self.config.application
        if app is not None:
            return app.users
        return sum(w.population or 0 for w in self.config.workloads)

    def open_point(self, rates: ArrayLike) -> OperatingPoint:
        """The open network with the workloads at host `rates`, placed for them."""
        return self.open_points(np.asarray(rates, dtype=np.float64)[:, None])[0]

    def open_points(self, rates: ArrayLike) -> list[OperatingPoint]:
        """Open operating points at several loads, rates [W, P]: the loads that share the
        placement which ignores the load (and so a network) are solved together, vectorised;
        a load placed for itself is solved alone."""
        return open_points_together([(self, rates)])[0]

    def _open_groups(self, r: FloatArray) -> list[tuple[Network, list[int]]]:
        """The loads r [W, P] placed: each network with the loads solved on it together (the
        loads that share the placement which ignores the load), a load placed for itself
        alone, as `open_points_in_order` solves it, even where its placement (and so its
        network) is another load's too."""
        by_network: dict[object, tuple[Network, list[int]]] = {}
        for p in range(r.shape[1]):
            net, is_shared = self._placed(r[:, p])
            by_network.setdefault(id(net) if is_shared else ("alone", p), (net, []))[1].append(p)
        return list(by_network.values())

    def open_points_in_order(self, rates: ArrayLike) -> Iterator[OperatingPoint]:
        """`open_points` one load at a time, in order, rates [W, P] with the loads ascending
        along one mix: a caller that stops early places no load past the one it stopped at
        (placing a load past Easy Tier's first ceiling is most of its cost). Each load gives
        the figures `open_points` gives it: the loads that share the placement which ignores
        the load lie below every load with a placement of its own, so they are all known, and
        solved together as `open_points` solves them, before the first of those."""
        r = np.asarray(rates, dtype=np.float64)
        shared: dict[int, tuple[Network, list[int]]] = {}

        def solve_shared() -> Iterator[OperatingPoint]:
            solved: dict[int, OperatingPoint] = {}
            for net, columns in shared.values():
                solved.update(zip(columns, self._solve_open(net, r[:, columns]), strict=True))
            shared.clear()
            yield from (solved[p] for p in sorted(solved))

        for p in range(r.shape[1]):
            net, is_shared = self._placed(r[:, p])
            if is_shared:
                shared.setdefault(id(net), (net, []))[1].append(p)
                continue
            yield from solve_shared()
            yield self._solve_open(net, r[:, [p]])[0]
        yield from solve_shared()

    def _solve_open(self, net: Network, r: FloatArray) -> list[OperatingPoint]:
        """The operating points of `net` at the loads r [W, P] (`_OpenSolve`)."""
        task = self._open_solve(net, r)
        if task.loads is None:
            task.solved(station_states(net, task.rates))
        assert task.loads is not None
        return task.loads.points()

    def _open_solve(self, net: Network, r: FloatArray) -> _OpenSolve:
        """The solve of `net` at the loads r [W, P], its points found already where they can
        be: one load on a network of `Builds.networks` is solved once for every configuration
        that shares it: the point's figures read the network's stations and flows and the
        configuration's NVS (the same for all of them), and its classes' responses the fixed
        delays too, which follow the front end (`network_for`): a point solved for another
        front end lends its stations' states, and only the responses are worked out again
        (but for z/OS workloads, whose device queues read the responses: solved again)."""
        held = self._built_keys.get(id(net))
        if r.shape[1] != 1 or held is None or held[0] is not net:
            return _OpenSolve(self, net, r)
        latency = self.config.hardware.system.front_end_latency_us
        key = (held[1], np.ascontiguousarray(r).tobytes())
        found = self._builds.points.get(key)
        if found is not None and found[0] != latency and self.config.hardware.ficon is None:
            _, loads, states = found
            per_class = _writes_unknown(net, class_responses(net, states), loads.nvs_full)
            return _OpenSolve(
                self, net, r, loads=replace(loads, network=net, class_response_s=per_class)
            )
        if found is None or found[0] != latency:
            return _OpenSolve(self, net, r, kept=(key, latency))
        loads = found[1]
        return _OpenSolve(
            self, net, r, loads=loads if loads.network is net else replace(loads, network=net)
        )

    def _loads_of(self, net: Network, r: FloatArray, states: StationStates) -> OpenLoads:
        """The operating points of `net` at the loads r [W, P] from its stations' states, as
        arrays over the loads (`OpenLoads`)."""
        per_class = class_responses(net, states)
        saturated = np.asarray(states.saturated.any(axis=0), dtype=np.bool_)
        nvs_full = self._nvs_full(net, r, states) & ~saturated
        for p in np.flatnonzero(saturated):  # saturated by destages: NVS is full
            nvs_full[p] = any(
                net.destage_share(int(k), r[:, p]) > 0
                for k in np.flatnonzero(states.saturated[:, p])
            )
        per_class = _writes_unknown(net, per_class, nvs_full)
        return OpenLoads(
            network=net,
            rates=r,
            arrival=states.arrival,
            utilization=np.where(states.saturated, 1.0, states.utilization),
            wait_s=np.where(states.saturated, np.inf, states.wait_s),
            service_s=states.service_s,
            speed_factor=states.speed_factor,
            station_saturated=states.saturated,
            class_response_s=per_class,
            saturated=saturated,
            nvs_full=nvs_full,
            wait_ratio=states.wait_ratio,
        )

    def _nvs_full(self, net: Network, r: FloatArray, states: StationStates) -> BoolArray:
        """Per load of r [W, P], whether the dirty data fill NVS: NVS fills per server (each
        holds the writes to the ranks it owns: `cache.nvs_full`) and per rank (one rank's
        writes may fill no more than the per-rank limit). Each server's and each rank's dirty
        data are a part of all of it (`Network.dirty_bytes`: a share of a station's is at most
        all of it), so where all of it is under both limits, by a margin far beyond the
        rounding of its sums, none is full, and the split by server and rank is not worked
        out (the table of which server holds each station's writes was a fifth of a sizing
        search's open solution; at the shipped searches' loads all the dirty data are under
        1% of the per-rank limit)."""
        total = net.dirty_bytes(r, states.wait_s, states.speed_factor)  # [P]
        if (total < _nvs_limit(self.config)).all():
            return np.zeros(r.shape[1], dtype=np.bool_)
        hw = self.config.hardware
        nvs_server = cache.nvs_bytes_per_server(hw.system, hw.cache_gb)
        limit = cache.rank_nvs_limit_bytes(hw.system, hw.cache_gb)
        dirty, by_rank = net.dirty_bytes_by_server_and_rank(r, states.wait_s, states.speed_factor)
        full = np.asarray(cache.nvs_full(dirty, nvs_server).any(axis=0))
        full |= np.asarray(cache.nvs_full(by_rank, limit).any(axis=0)) if by_rank.size else False
        return full

    def closed_point(self, population: int, open_scale: float = 1.0) -> OperatingPoint:
        """The closed workloads at a total `population` (their populations in proportion; for
        an application, its users), the open ones at `open_scale` x their planned rates, placed
        for the rates they settle at (`model.closed_point`)."""
        weights = self.closed_weights()
        open_rates = self.planned_rates() * open_scale
        app = self.config.application
        users = population
        customers, think_s, host = closed_load(self.config, population)
        following = self.follows_load or open_rates.sum() > 0
        net, state = settled(self.network, weights, open_rates, customers, think_s, host, following)
        figures = closed_figures(net, state, weights, open_rates)
        per_class = figures.class_response_s
        nvs_full = bool(state.destage_limited)
        return OperatingPoint(
            network=net,
            rates=figures.rates,
            arrival=figures.arrival,
            utilization=np.where(figures.station_saturated, 1.0, state.utilization),
            wait_s=figures.wait_s,
            service_s=state.service_s,
            speed_factor=state.speed_factor,
            station_saturated=figures.station_saturated,
            class_response_s=_writes_unknown(net, per_class, nvs_full),
            saturated=bool(figures.station_saturated.any()),
            nvs_full=nvs_full,
            wait_ratio=figures.wait_ratio,
            closed=state,
            transactions=None if app is None else transactions(app, users, state),
        )

    def planned_point(self) -> OperatingPoint:
        """At the scenario's load: the planned rates, or the closed workloads' populations."""
        if self.config.has_closed:
            return self.closed_point(self.closed_population())
        return self.open_point(self.planned_rates())

    # ----------------------------------------------------------------------- capacity

    def saturation(self, unit: ArrayLike) -> tuple[float, int]:
        """The total rate at which the mix `unit` (per-workload rates summing to 1) saturates
        a station when Easy Tier places for that rate, and the station that saturates
        (`model.saturation`)."""
        return saturating_load(self.network, np.asarray(unit, dtype=np.float64), self.follows_load)

    def carries(self, unit: ArrayLike, total: float) -> bool:
        """Whether the placement for the total rate `total` of the mix `unit` carries it: below
        the maximum (`saturation`) it does, above it it does not. The maximum of a mix with
        z/OS workloads may be a device queue's, which the stations' scale does not see."""
        rates = np.asarray(unit, dtype=np.float64) * total
        net = self.network(rates)
        scale, _ = net.saturation_scale(rates)
        return bool(scale >= 1.0) and queues_carry(net, rates)


@dataclass
class _OpenSolve:
    """One network of a solver at loads r [W, P]: its points, once known (found, or made from
    the stations' states, `solved`), and where a single load's point is kept for the
    configurations that share the network (`Solver._open_solve`): its key in `Builds.points`
    and the front-end latency it is solved for."""

    solver: Solver
    net: Network
    rates: FloatArray
    loads: OpenLoads | None = None
    kept: tuple[tuple[object, ...], float] | None = None

    def solved(self, states: StationStates, loads: OpenLoads | None = None) -> None:
        """The points made from the stations' states at these loads (`loads`, where made
        already: `_loads_together`), and kept, where the single load's point is kept."""
        if loads is None:
            loads = self.solver._loads_of(self.net, self.rates, states)
        self.loads = loads
        if self.kept is not None:
            key, latency = self.kept
            points = self.solver._builds.points
            if len(points) >= _POINTS_KEPT:
                points.clear()
            points[key] = (latency, self.loads, states)


def _solve_together(pending: Sequence[_OpenSolve]) -> None:
    """Every task of `pending` solved (`_OpenSolve.solved`): the stations' states of all of
    them in one pass (`model.open.station_states_many`), then their points made together,
    those at loads of one shape (`_loads_together`), to the bit what each gets alone
    (`Solver._loads_of`)."""
    states = station_states_many([(t.net, t.rates) for t in pending])
    by_shape: dict[tuple[int, ...], list[int]] = {}
    for i, task in enumerate(pending):
        by_shape.setdefault(task.rates.shape, []).append(i)
    for held in by_shape.values():
        each = [states[i] for i in held]
        tasks = [pending[i] for i in held]
        for task, state, loads in zip(tasks, each, _loads_together(tasks, each), strict=True):
            task.solved(state, loads)


def _loads_together(
    tasks: Sequence[_OpenSolve], states: Sequence[StationStates]
) -> list[OpenLoads]:
    """`Solver._loads_of` of each task (all at loads of one shape [W, P]) from its stations'
    states, to the bit, with the stations of all of them one under the other: whether a
    load saturates a station and whether its dirty data come near NVS's limits
    (`network.dirty_bytes_near`) judged for all of them at once. Where neither, nothing is
    left to mark (no station saturated, no class blocked, no write waiting for NVS) and
    only the classes' responses are worked out, each task's its own product
    (`open.storage_responses_free`); a task with a saturated station, NVS near full or z/OS
    device queues is made alone."""
    sizes = [len(s.wait_s) for s in states]
    starts = np.cumsum([0, *sizes[:-1]]).tolist()
    saturated = np.concatenate([s.saturated for s in states])
    wait = np.concatenate([s.wait_s for s in states])
    factor = np.concatenate([s.speed_factor for s in states])
    some: BoolArray = np.logical_or.reduceat(saturated, starts, axis=0)  # [tasks, P]
    clear = ~some.any(axis=1)
    dirty = dirty_bytes_near(
        [t.net for t in tasks], np.stack([t.rates for t in tasks]), wait, factor
    )
    limits = np.array([_nvs_limit(t.solver.config) for t in tasks])
    plain = np.asarray(clear & (dirty < limits[:, None]).all(axis=1), dtype=np.bool_)
    ratio_and_speed = np.concatenate([s.wait_ratio for s in states]) + factor
    out = []
    for task, state, start, size, alone in zip(
        tasks, states, starts, sizes, (~plain).tolist(), strict=True
    ):
        net = task.net
        if alone or net.config.hardware.ficon is not None:
            out.append(task.solver._loads_of(net, task.rates, state))
            continue
        none = np.zeros(task.rates.shape[1], dtype=np.bool_)
        out.append(
            _open_loads(
                network=net,
                rates=task.rates,
                arrival=state.arrival,
                utilization=state.utilization,
                wait_s=state.wait_s,
                service_s=state.service_s,
                speed_factor=state.speed_factor,
                station_saturated=state.saturated,
                class_response_s=storage_responses_free(net, ratio_and_speed[start : start + size]),
                saturated=none,
                nvs_full=none.copy(),
                wait_ratio=state.wait_ratio,
            )
        )
    return out


def _nvs_limit(config: Configuration) -> float:
    """The dirty data under which neither a server's NVS nor a rank's share of it is full,
    with a margin for the sums' rounding (`Solver._nvs_full`)."""
    hw = config.hardware
    nvs_server = cache.nvs_bytes_per_server(hw.system, hw.cache_gb)
    limit = cache.rank_nvs_limit_bytes(hw.system, hw.cache_gb)
    return min(nvs_server, limit) * (1 - _NVS_MARGIN)


_OPEN_LOADS_FIELDS = frozenset(f.name for f in fields(OpenLoads))


def _open_loads(**given: object) -> OpenLoads:
    """`OpenLoads(**given)` without its `__init__` (`_open_point`): a search makes one per
    configuration."""
    assert given.keys() == _OPEN_LOADS_FIELDS
    loads = object.__new__(OpenLoads)
    loads.__dict__.update(given)
    return loads


LoadGroups = list[tuple[list[int], OpenLoads]]
"""One ask's loads as solved (`open_loads_together`): per network, the ask's loads (columns)
solved on it and their points as arrays."""


def open_loads_together(asks: Sequence[tuple[Solver, ArrayLike]]) -> list[LoadGroups]:
    """`Solver.open_points` of several solvers (or several calls of one), each at its loads
    [W, P]: every load placed first, in the order asked (placement reads no solution, so each
    load gets the network it gets asked alone), then every network whose points are not known
    solved in one pass (`model.open.station_states_many`, to the bit what `station_states`
    gives each): per ask, in the same order, its loads grouped by the network solved for
    them, each group's points as arrays (`OpenLoads`)."""
    tasks: list[list[tuple[list[int], _OpenSolve]]] = []
    for solver, rates in asks:
        r = np.asarray(rates, dtype=np.float64)
        tasks.append(
            [
                (columns, solver._open_solve(net, r[:, columns]))
                for net, columns in solver._open_groups(r)
            ]
        )
    _solve_together([task for groups in tasks for _, task in groups if task.loads is None])
    out = []
    for groups in tasks:
        solved: LoadGroups = []
        for columns, task in groups:
            assert task.loads is not None
            solved.append((columns, task.loads))
        out.append(solved)
    return out


def open_points_together(asks: Sequence[tuple[Solver, ArrayLike]]) -> list[list[OperatingPoint]]:
    """`open_loads_together`, each ask's points in the order of its loads, as
    `Solver.open_points` gives them."""
    out = []
    for groups in open_loads_together(asks):
        points: list[OperatingPoint | None] = [None] * sum(len(c) for c, _ in groups)
        for columns, loads in groups:
            for p, point in zip(columns, loads.points(), strict=True):
                points[p] = point
        out.append([p for p in points if p is not None])
    return out


# --------------------------------------------------------------------------- shared


@dataclass
class Builds:
    """What configurations that build the same networks share (`builds_for`): the operation
    costs and the network builder of the first of them, the networks built, by the placement's
    `network_key`, the open operating point of a single load solved on them (by that key and
    the rates' bytes: the front-end latency it was solved for, the point as `OpenLoads` and
    its stations' states), and the pools timed at loads for placement (`pool_load.PoolsTimed`)."""

    costs: OpCosts
    builder: NetworkBuilder
    networks: dict[tuple[object, ...], Network] = field(default_factory=dict)
    points: dict[tuple[object, ...], tuple[float, OpenLoads, StationStates]] = field(
        default_factory=dict
    )
    pools: PoolsTimed = field(default_factory=dict)


_BUCKETS_KEPT = 32
_SAME_BUCKET_KEPT = 4
_NETWORKS_KEPT = 32
_POINTS_KEPT = 64
_POOLS_KEPT = 64
_builds: Kept[Builds] = Kept(buckets=_BUCKETS_KEPT, per_bucket=_SAME_BUCKET_KEPT)
"""Per `_build_inputs` bucket, the builds of the configurations asked for: the last
`_BUCKETS_KEPT` buckets (the last `_SAME_BUCKET_KEPT` of each), at most `_NETWORKS_KEPT`
networks and `_POINTS_KEPT` points each. A calibration's evaluations of one interval differ
in a few workload figures; those that differ only in a skew curve or the front end (the
finite differences of a fit) come back to the builds of the evaluation before them."""


_SKEW_FIELDS = ("skew", "mb_skew", "skew_description")
_BUILT_FROM = attrgetter(*(f.name for f in fields(WorkloadConfig) if f.name not in _SKEW_FIELDS))
"""A workload's fields but its skew curves, as a tuple (compared with == as the workload
would be without them, and read without making that workload: `_build_inputs`)."""


def _build_inputs(config: Configuration) -> tuple[object, ...]:
    """Everything of `config` that its networks (`NetworkBuilder`), their operation costs
    (`OpCosts`) and their open solution (`Solver._points_of`) read (compared with ==), but
    the workloads' skew curves (read only by placement: a network is built from the figures
    of its placement, `network_key`, which is part of every key `Builds` holds) and, with no
    copy services, the system's front-end latency (read only by the classes' fixed delays,
    which `network_for` works out for each configuration; with copy services the secondary's
    and the links' times are the primary's too, and it stays in)."""
    hardware: object = config.hardware
    if config.copy_services is None:
        hardware = _without_front_end(config.hardware)
    workloads = tuple(map(_BUILT_FROM, config.workloads))
    return (
        hardware,
        config.ranks,
        config.pools,
        workloads,
        config.service_level,
        config.logs,
        config.application,
        config.copy_services,
    )


_HARDWARE_KEPT = 16
_hardware_read: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[object, ...]]] = {}
"""`network_build.without_front_end` of each hardware asked for, by its identity (held):
a sizing search's configurations share theirs (`SharedParts`), and listing every figure
of the system for each of them was most of `_build_inputs`."""


def _without_front_end(hardware: Hardware) -> tuple[object, ...]:
    """`network_build.without_front_end(hardware)`, made once per hardware (`_hardware_read`)."""
    return kept_by_identity(
        _hardware_read, (hardware,), (), _HARDWARE_KEPT, lambda: without_front_end(hardware)
    )


forget_also(_hardware_read.clear)


def builds_for(config: Configuration) -> Builds:
    """The builds of the configurations whose `_build_inputs` are `config`'s: their networks
    and points are `config`'s, to the bit, once made its own (`network_for`)."""
    inputs = _build_inputs(config)
    hw = config.hardware
    # A cheap hashable part picks the few to compare in full (with ==).
    bucket = (
        hw.host_ports,
        hw.da_pairs,
        hw.cache_gb,
        len(config.ranks),
        tuple((w.name, w.iops, w.mix.destage_ratio) for w in config.workloads),
    )

    def made() -> Builds:
        costs = OpCosts(config)
        return Builds(costs, NetworkBuilder(config, costs))

    return _builds.get(bucket, inputs, made)


forget_also(_builds.clear)  # `layout.forget_placements` forgets the builds too


def _writes_unknown(net: Network, per_class: FloatArray, nvs_full: bool | BoolArray) -> FloatArray:
    """The classes' responses `per_class` ([G], or [G, P] over loads) with the writes' time
    unknown (inf) where NVS is full (`nvs_full`: one flag, or one per load [P]): writes then
    wait for destages, not for cache."""
    if not np.any(nvs_full):
        return per_class
    writes = np.array([c.endswith("write") for _, c in net.times.keys], dtype=bool)
    if per_class.ndim == 2:
        writes = writes[:, None] & np.asarray(nvs_full, dtype=bool)[None, :]
    return np.where(writes, np.inf, per_class)
