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

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.components import cache
from diskmodel.components.host import customers
from diskmodel.configuration import Configuration
from diskmodel.model.application import TransactionState, application_loop, transactions
from diskmodel.model.bracket import Illinois, fixed_point_between
from diskmodel.model.closed import ClosedState, HostCpu, solve_closed
from diskmodel.model.costs import OpCosts
from diskmodel.model.layout import free_headroom, layout, network_key
from diskmodel.model.network import Network
from diskmodel.model.network_build import NetworkBuilder
from diskmodel.model.open import class_rates, class_responses, station_states
from diskmodel.queueing.closed_network import ClosedNetworkResult

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

# Closed points: the rate placement is made for and the rate it gives agree to this (relative),
# in at most _CLOSED_ROUNDS steps.
_CLOSED_TOL = 1e-5
_CLOSED_ROUNDS = 40
# The maximum rate of a mix whose placement follows the load: the placement made for it and
# the rate it carries agree to this (relative); the true maximum lies within it.
SATURATION_TOL = 1e-4
# Networks kept per solver (a curve needs one per load once Easy Tier's ceilings bind).
_CACHE_SIZE = 512
# Loads within this (relative) of the rate at which a ceiling starts to bind are placed by the
# search itself, so rounding never decides which side of it a load is on.
_FREE_MARGIN = 1e-6


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

    @property
    def response_s(self) -> float:
        """Mean response over all host I/O (inf where unknown). A purely closed load: N / X - Z
        (Little), known even when NVS is full and the split of the extra wait is not."""
        if self.closed is not None and self._all_closed:
            return self.closed.response_s
        weights = class_rates(self.network, self.rates[:, None])[:, 0]
        total = float(weights.sum())
        if total <= 0:
            return 0.0
        used = weights > 0
        if not np.all(np.isfinite(self.class_response_s[used])):
            return float("inf")
        return float(weights[used] @ self.class_response_s[used] / total)

    @property
    def _all_closed(self) -> bool:
        return all(w.is_closed for w in self.network.workloads)

    @property
    def busiest(self) -> int:
        """The station with the highest utilisation."""
        return int(np.argmax(self.utilization))


class Solver:
    """Operating points of one configuration, sharing its operation costs and networks."""

    def __init__(self, config: Configuration) -> None:
        self.config = config
        self.costs = OpCosts(config)
        self._builder = NetworkBuilder(config, self.costs)
        self._networks: dict[tuple[object, ...], Network] = {}
        # Per mix (rate ratios): the total rate up to which no Easy Tier ceiling binds.
        self._free_up_to: dict[tuple[object, ...], float] = {}
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
        ratios = tuple(np.round(r / total, 12)) if total > 0 else tuple(r)
        free_key: tuple[object, ...] = ("ratios", ratios)
        if not self.follows_load and free_key in self._networks:
            return self._networks[free_key], True
        if self.follows_load:
            # Below the rate at which the first Easy Tier ceiling binds, every load of this
            # mix shares the placement that ignores the load: no placement search needed.
            free = self._free_up_to.get(ratios)
            if free is not None and total <= free and ("free", ratios) in self._networks:
                return self._networks[("free", ratios)], True
        key: tuple[object, ...] = ("rates", tuple(float(f"{v:.12g}") for v in r))
        if key in self._networks:
            return self._networks[key], False
        if not self.follows_load:
            key = free_key
        placed = layout(self.config, r, self.costs)
        if self.follows_load and not any(p.bound for p in placed.values()):
            # No ceiling binds: the placement is the one every load of this mix shares.
            key = ("free", ratios)
            if total > 0 and ratios not in self._free_up_to:
                # A margin under the exact limit, where the placement search decides.
                self._free_up_to[ratios] = (
                    total * free_headroom(self.config, r, self.costs) * (1 - _FREE_MARGIN)
                )
            if key in self._networks:
                return self._networks[key], True
        # A placement made for this load may still be another load's: a tier held to a
        # ceiling of 0 places the same data at every load (the loads then share a network,
        # each still solved alone).
        own = key[0] == "rates"
        same: tuple[object, ...] = ("placement", network_key(placed)) if own else ()
        net = self._networks.get(same) if own else None
        if net is None:
            net = self._builder.build(placed)
        if len(self._networks) > _CACHE_SIZE:
            self._networks.clear()
        self._networks[key] = net
        if own:
            self._networks[same] = net
        return net, not own

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
        r = np.asarray(rates, dtype=np.float64)
        by_network: dict[object, tuple[Network, list[int]]] = {}
        for p in range(r.shape[1]):
            net, is_shared = self._placed(r[:, p])
            # A load placed for itself is solved alone, as `open_points_in_order` solves it,
            # even where its placement (and so its network) is another load's too.
            by_network.setdefault(id(net) if is_shared else ("alone", p), (net, []))[1].append(p)
        out: list[OperatingPoint | None] = [None] * r.shape[1]
        for net, columns in by_network.values():
            for p, point in zip(columns, self._solve_open(net, r[:, columns]), strict=True):
                out[p] = point
        return [p for p in out if p is not None]

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
        states = station_states(net, r)
        per_class = class_responses(net, states)
        saturated = np.asarray(states.saturated.any(axis=0), dtype=np.bool_)
        # NVS fills per server: each holds the writes to the ranks it owns (cache.nvs_full);
        # and per rank: one rank's writes may fill no more than the per-rank limit.
        dirty = net.dirty_bytes_by_server(r, states.wait_s, states.speed_factor)
        hw = self.config.hardware
        nvs_server = cache.nvs_bytes_per_server(hw.system, hw.cache_gb)
        dirty_full = np.asarray(cache.nvs_full(dirty, nvs_server).any(axis=0))  # [P]
        by_rank = net.dirty_bytes_by_rank(r, states.wait_s, states.speed_factor)
        limit = cache.rank_nvs_limit_bytes(hw.system, hw.cache_gb)
        dirty_full |= (
            np.asarray(cache.nvs_full(by_rank, limit).any(axis=0)) if by_rank.size else False
        )
        utilization = np.where(states.saturated, 1.0, states.utilization)
        wait = np.where(states.saturated, np.inf, states.wait_s)
        out = []
        for p in range(r.shape[1]):
            station_saturated = states.saturated[:, p]
            destage_limited = bool(saturated[p]) and any(
                net.destage_share(int(k), r[:, p]) > 0 for k in np.flatnonzero(station_saturated)
            )
            nvs_full = destage_limited or bool(not saturated[p] and dirty_full[p])
            responses = per_class[:, p]
            out.append(
                OperatingPoint(
                    network=net,
                    rates=r[:, p].copy(),
                    arrival=states.arrival[:, p],
                    utilization=utilization[:, p],
                    wait_s=wait[:, p],
                    service_s=states.service_s[:, p],
                    speed_factor=states.speed_factor[:, p],
                    station_saturated=station_saturated,
                    class_response_s=_writes_unknown(net, responses) if nvs_full else responses,
                    saturated=bool(saturated[p]),
                    nvs_full=nvs_full,
                    wait_ratio=states.wait_ratio[:, p],
                )
            )
        return out

    def closed_point(self, population: int, open_scale: float = 1.0) -> OperatingPoint:
        """The closed workloads at a total `population` (their populations in proportion; for
        an application, its users), the open ones at `open_scale` x their planned rates, placed
        for the rates they settle at."""
        weights = self.closed_weights()
        open_rates = self.planned_rates() * open_scale
        app = self.config.application
        host: HostCpu | None = None
        if app is not None:
            # `population` users, each as the I/O streams it keeps in flight (components.host).
            users = population
            population = customers(users, app.parallel_ios)
            streams = population / users
            think_s, host = application_loop(app, streams)
        else:
            closed = [w for w in self.config.workloads if w.is_closed]
            given = sum(w.population or 0 for w in closed)
            think_s = sum((w.population or 0) * w.think_time_s for w in closed) / given

        # Placement depends on the rate the closed class settles at, and that rate on the
        # placement: solve x = g(x), g(x) the closed throughput on the network placed for the
        # closed class at x. g is bounded (the hardware's capacity) and may rise or fall with
        # x (a higher rate moves data to slower tiers, which relieves a fast tier that was the
        # bottleneck), so h(x) = g(x) - x is positive at 0 and negative far enough out: bracket
        # a sign change from 0 upwards, then regula falsi (Illinois) inside it.
        # The closed networks solved on the way, by their inputs: the first two placements (for
        # no load, then for the rate it settles at) are often the same under two cache keys.
        solved: dict[bytes, ClosedNetworkResult] = {}

        def settle(x: float) -> tuple[Network, ClosedState]:
            net = self.network(open_rates + weights * x)
            state = solve_closed(net, weights, population, think_s, open_rates, host, solved)
            return net, state

        def solve(x: float) -> tuple[tuple[Network, ClosedState], float]:
            placed, settled = settle(x)
            return (placed, settled), settled.throughput

        net, state = settle(0.0)
        following = self.follows_load or open_rates.sum() > 0
        if following and state.throughput > 0:
            lo, h_lo = 0.0, state.throughput
            hi = state.throughput
            net, state = settle(hi)
            h_hi = state.throughput - hi
            for _ in range(_CLOSED_ROUNDS):
                if h_hi < 0 or abs(h_hi) <= _CLOSED_TOL * hi:
                    break
                lo, h_lo = hi, h_hi
                hi = max(state.throughput, hi * 1.5)
                net, state = settle(hi)
                h_hi = state.throughput - hi
            net, state = fixed_point_between(
                solve,
                lo,
                h_lo,
                hi,
                h_hi,
                (net, state),
                rel_tol=_CLOSED_TOL,
                max_probes=_CLOSED_ROUNDS,
            )
        rates = open_rates + weights * state.throughput
        arrival = net.arrival.T @ rates
        open_only = station_states(net, open_rates)
        station_saturated = open_only.saturated[:, 0]  # only open work can saturate a station
        states_wait = np.where(station_saturated, np.inf, state.wait_s)
        times = net.times
        # A visit waits in proportion to its own service (processor sharing, as the MVA
        # solves it): the mean wait per visit over the mean visible service at the station.
        visible_s = weights @ (net.work - net.async_work)
        visible_n = weights @ net.visible_arrival
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_visible = np.where(
                visible_n > 0, visible_s / np.where(visible_n > 0, visible_n, 1.0), 0.0
            )
            ratio = np.where(
                (mean_visible > 0) & ~station_saturated,
                state.wait_s / np.where(mean_visible > 0, mean_visible, 1.0),
                0.0,
            )
        per_class = times.service_s @ (ratio + state.speed_factor) + times.delay_s
        blocked = (times.visits > 0).astype(np.float64) @ station_saturated.astype(np.float64) > 0
        per_class = np.where(blocked, np.inf, per_class)
        nvs_full = bool(state.destage_limited)
        return OperatingPoint(
            network=net,
            rates=rates,
            arrival=arrival,
            utilization=np.where(station_saturated, 1.0, state.utilization),
            wait_s=states_wait,
            service_s=state.service_s,
            speed_factor=state.speed_factor,
            station_saturated=station_saturated,
            class_response_s=_writes_unknown(net, per_class) if nvs_full else per_class,
            saturated=bool(station_saturated.any()),
            nvs_full=nvs_full,
            wait_ratio=ratio,
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
        a station when Easy Tier places for that rate, and the station that saturates.

        On a network placed for a rate x the mix can grow to x times its saturation scale;
        where placement depends on the load, the answer is the x at which that is x itself
        (the load the network placed for it just carries): climbing x -> capacity(x) from
        below, then regula falsi (Illinois) in log x once a load is found that its own
        placement cannot carry.
        """
        u = np.asarray(unit, dtype=np.float64)

        def capacity(x: float) -> tuple[float, int]:
            scale, k = self.network(u * x).saturation_scale(u * x)
            return x * scale, k

        if not self.follows_load:
            return capacity(1.0)
        # From the capacity of the placement that ignores the load, climb x -> capacity(x)
        # while the placement for x carries more than x (a rising sequence that converges to
        # the answer from below), then close the bracket where it first carries less.
        lo = self._probe(u)
        cap_lo, k_lo = capacity(lo)
        if not np.isfinite(cap_lo):
            return cap_lo, k_lo
        while cap_lo <= lo and lo > 1e-9:  # even the probe load is too much: shrink
            lo /= 4.0
            cap_lo, k_lo = capacity(lo)
        hi, cap_hi, k_hi = lo, cap_lo, k_lo
        for _ in range(60):
            if cap_hi / hi - 1.0 <= SATURATION_TOL:
                break
            lo, cap_lo, k_lo = hi, cap_hi, k_hi
            hi = cap_lo
            cap_hi, k_hi = capacity(hi)
        if cap_hi >= hi * (1 - SATURATION_TOL):
            return hi, k_hi  # converged from below: the placement for hi just carries hi
        b: Illinois[float] = Illinois(lo, np.log(cap_lo / lo), hi, np.log(cap_hi / hi))
        for _ in range(40):
            if b.hi / b.lo - 1 <= SATURATION_TOL:
                break
            x = float(np.exp((np.log(b.lo) * b.f_hi - np.log(b.hi) * b.f_lo) / (b.f_hi - b.f_lo)))
            cap_x, k_x = capacity(x)
            f_x = np.log(cap_x / x)
            if f_x >= 0:
                b.passed(x, f_x)
                k_lo = k_x
            else:
                b.failed(x, f_x)
        return b.lo, k_lo

    def carries(self, unit: ArrayLike, total: float) -> bool:
        """Whether the placement for the total rate `total` of the mix `unit` carries it: below
        the maximum (`saturation`) it does, above it it does not."""
        rates = np.asarray(unit, dtype=np.float64) * total
        scale, _ = self.network(rates).saturation_scale(rates)
        return bool(scale >= 1.0)

    def _probe(self, unit: FloatArray) -> float:
        """A load at which to start looking for the maximum: the capacity of the placement
        that ignores the load (Easy Tier filling the fast tiers to capacity)."""
        net = self.network(unit * 1e-9)  # at a vanishing load no ceiling binds
        scale, _ = net.saturation_scale(unit)
        return float(scale) if np.isfinite(scale) else 1.0


def _writes_unknown(net: Network, per_class: FloatArray) -> FloatArray:
    """When NVS is full, writes wait for destages, not for cache: their time is not known."""
    writes = np.array([c.endswith("write") for _, c in net.times.keys], dtype=bool)
    return np.where(writes, np.inf, per_class)
