"""Bounds from the queueing core for `diskmodel size`, vectorised over candidates, and the rule
that lets a search skip a configuration without losing anything it reports.

**What is bounded.** For an open load (every workload given as `iops`) the exact solution of a
configuration needs its Easy Tier placement, which is what costs time. The bounds below need
only the configuration's counts, and hold for *every* placement the model can make:

- *Utilisation* (asymptotic bounds, Lazowska et al. 1984 §5.2: a station's utilisation is its
  arrival rate times its service, U = X D). The host ports share the load evenly, so their
  utilisation is exact. The processors' total work (host I/O and destages) does not depend
  on the placement, so the servers' mean utilisation is exact, and the busier server is at
  least that busy. The DA pairs' total work is at least the work the workload would give if
  all its small (and, separately, all its sequential) back-end operations went to the rank
  kind that costs the DA least; their mean utilisation is at least that over the pairs, and
  the busiest pair at least the mean. The drives' total work is bounded the same way from
  below (with the skew bound of the next point), their total capacity from above (an SSD's
  `alpha(D)`, an HDD's queue depth D, `size_profile.most_per_drive`): where the work reaches the
  capacity, some drive saturates, and the busiest drive is at least as busy as work over
  capacity (a drive's busy time is at least its work / alpha(D)).
- *Skew* (the placement's only freedom): whatever the placement, the hottest fraction c of a
  workload's capacity carries at most F(c) of its small I/O (F its skew curve, concave). So
  the share of its small back-end work on the k fastest rank kinds of a candidate is at most
  F(their capacity / the workload's capacity); the least work (or time) its I/O can cost is
  the greedy fill of that bound, fastest kind first (a relaxation of the placement, hence a
  lower bound). A workload with a media preference (`pin` with an `io_share` the planner
  states) is given the fastest kind's cost outright (no skew bound).
- *Response time* (no-queueing bound): a host I/O's response is at least its own service at
  every station it visits plus the front end's fixed delay, with no wait, except at the
  host ports, whose wait at the even load is at least half the M/M/1 one (the model scales
  it by (1 + scv) / 2, and scv >= 0). At a drive the model's response
  is the load-dependent station's L / X, which is at least its queue-length-one service
  because the drive never serves faster than one request per request queued
  (alpha(n) <= n). A read miss costs at least the drive and DA service of the rank kind it
  lands on, at the shortest data span the model ever gives (`rank_shares.EMPTY_FRACTION`); the
  skew bound splits misses over kinds.

Each bound is a function of the planned load times the growth factor: a configuration whose
bound breaks a limit of the service level (a utilisation ceiling, the response target, or
saturation) in some period cannot meet the service level (`Screen.fails`); one whose bound
saturates at the planned load has no response now and is on no front (`Screen.saturated`).
tests/analyses/test_sizing_pruning.py checks every bound against the exact solution.

**What is skipped** (`skippable`). The search solves configurations cheapest first and skips
one, c, only when
  (A) the bounds prove it saturated at the planned load: the front counts only configurations
      with a response now, and a saturated one meets nothing; or
  (B) some configuration d already solved is no dearer (cost, then power) and faster by a
      margin, R(d) (1 + s)^2 < R_lb(c) (s = `SAME_RESPONSE`, the front's 1%), and c cannot be
      an answer: the bounds prove it breaks the service level, or a solved configuration
      meeting it is strictly cheaper (and, if c only adds to the current configuration, a
      solved upgrade meeting it is strictly cheaper).
Proof that the front and the answers are those of the exhaustive search: under (B), d beats c
(no dearer, and R(d) (1 + s) < R(c)). The front's relation is not transitive (responses within
1% count as equal), hence the squared margin: if c beats some e, then R(c) <= R(e) (1 + s), so
R(d) (1 + s) < R(c) / (1 + s) <= R(e) and d, no dearer than e, beats e too. So every
configuration that c would have kept off the front is kept off by d, which is solved; c itself
is beaten by d. Under (A) c is never on the front nor beats anything (only configurations with
a response now compete). The cheapest meeting the service level (and the cheapest upgrade)
is never skipped: (A) and the first arm of (B) skip only configurations that break it, the
second arm only ones with a strictly cheaper solved configuration meeting it. The tests
compare the pruned search with the exhaustive one (hypothesis and brute force).

**Rule B'** (the batched search of a large space, `size_batch._beaten`) skips c also when a
solved d strictly cheaper has R(d) <= R_lb(c) (1 + s): d then beats c (cheaper, and no slower
beyond the front's margin), but c might be what beats some e, so the squared margin's
transitivity argument does not hold. The search makes up for it at the end: any skipped c
that could beat a member e of the solved front (no dearer, R_lb(c) <= R(e) (1 + s)) is solved
(`size_batch._front_threats`), until none could. Then the solved front is the exhaustive one:
a member of it is beaten by no solved configuration and by no skipped one, so it is on the
exhaustive front; a member of the exhaustive front is beaten by nobody, so it was not skipped
(every skipped one is beaten by a solved one or saturated), and no solved one beats it.

**Monotonicity** is not relied on: the model does not guarantee it. Ranks are dealt to DA
pairs round-robin, so one more DA pair or rank can move a rank onto a busier pair (issue 14:
+3 SSD ranks maxed out below +2), and Easy Tier's placement for a load is a search, not a
formula; a rule "more is never slower" would need a proof the model does not give.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.analyses.size_profile import Profile, RankKind
from diskmodel.cached import cached_property
from diskmodel.tiering.skew import SkewCurve

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

MARGIN = 1e-9
"""Relative margin by which a bound must pass a limit before it counts as proof (the exact
solution and the bound compute the same quantity in different order)."""


@dataclass(frozen=True)
class Space:
    """The candidates to screen, as arrays [N]: the profile each uses, its host ports, DA pairs
    and rank count per kind [N, K]."""

    profile: NDArray[np.int64]
    host_ports: FloatArray
    da_pairs: FloatArray
    ranks: FloatArray


@dataclass(frozen=True)
class Screen:
    """The bounds of every candidate: the lower bound of its response at the planned load
    (inf where the bounds saturate it), whether the bounds saturate it now, whether they prove
    it breaks the service level in some period, and (where they do) which bound, in which
    period, by how much (`why`: an index into `texts`, -1 where none; `why_value`: the bound's
    figure, which `reason_of` writes into that text); and the utilisation each component
    kind's busiest station has at least at the planned load [4, N] (`COMPONENT_KINDS` order:
    ports, processors, DA pairs, drives)."""

    response_lb_s: FloatArray
    saturated: BoolArray
    fails: BoolArray
    why: NDArray[np.int64]
    why_value: FloatArray
    texts: tuple[str, ...]
    utilization_lb: FloatArray

    def reason_of(self, i: int) -> str:
        """Why candidate `i` breaks the service level ("" when the bounds do not prove it)."""
        k = int(self.why[i])
        return "" if k < 0 else self.texts[k].format(float(self.why_value[i]))

    @property
    def reason(self) -> tuple[str, ...]:
        """`reason_of` every candidate."""
        return tuple(self.reason_of(i) for i in range(len(self.why)))


class Bounded:
    """A per-configuration search's bounds, in the order it asks for them: every
    configuration's response bound and whether it is saturated (`Screen.response_lb_s`,
    `Screen.saturated`), known before anything is solved (rule A, `_maybe_beaten` and rule
    B's first test, `skippable`), and the rest of the `Screen` (which limits the bounds prove
    broken, and why), made by `whole` the first time it is asked for: where rule B finds a
    configuration beaten, or never in a search that skips nothing (`unsaturated_responses`)."""

    def __init__(
        self, response_lb_s: FloatArray, saturated: BoolArray, whole: Callable[[], Screen]
    ) -> None:
        self.response_lb_s = response_lb_s
        self.saturated = saturated
        self._whole = whole

    @classmethod
    def of(cls, screen: Screen) -> Bounded:
        return cls(screen.response_lb_s, screen.saturated, lambda: screen)

    @cached_property
    def whole(self) -> Screen:
        made = self._whole()
        # The same bounds, however they were found (tests/analyses/test_sizing_pruning.py).
        assert np.array_equal(made.response_lb_s, self.response_lb_s)
        assert np.array_equal(made.saturated, self.saturated)
        return made

    @property
    def fails(self) -> BoolArray:
        return self.whole.fails

    @property
    def utilization_lb(self) -> FloatArray:
        return self.whole.utilization_lb

    def reason_of(self, i: int) -> str:
        return self.whole.reason_of(i)

    @property
    def reason(self) -> tuple[str, ...]:
        return self.whole.reason


@dataclass(frozen=True)
class Limits:
    """The service level as the bounds test it: the response target (s) and the utilisation
    ceilings of the ports, processors, DA pairs and drives; the growth factors and labels."""

    response_s: float
    host_adapter: float
    processor: float
    device_adapter: float
    rank: float
    factors: tuple[float, ...]
    periods: tuple[str, ...]


def _present_min(values: FloatArray, present: BoolArray) -> FloatArray:
    """Per candidate [N], the least of `values` [K] over the kinds it has [N, K] (0 if none)."""
    masked = np.where(present, values[None, :], np.inf)
    out = masked.min(axis=1)
    return np.where(np.isfinite(out), out, 0.0)


def _skewed_min(
    values: FloatArray, capacity_gb: FloatArray, skew: SkewCurve | None, workload_gb: float
) -> FloatArray:
    """The least mean of `values` [K] (a cost per unit of small I/O on each kind) over every
    split of a workload's small I/O that the skew allows, per candidate with `capacity_gb`
    [N, K] of each kind: the kinds filled cheapest first, the first k holding at most
    F(their capacity / the workload's). A kind a candidate lacks has no capacity."""
    order = np.argsort(values, kind="stable")
    held = np.cumsum(capacity_gb[:, order], axis=1)
    has = capacity_gb[:, order] > 0
    if skew is None:
        # No skew bound: everything may sit on the cheapest kind present.
        return _present_min(values, capacity_gb > 0)
    share = np.minimum(1.0, skew.share(np.minimum(held / workload_gb, 1.0)))
    # The slowest kind present takes the rest (the pool holds the workload: validated).
    last = held >= held[:, -1:] * (1 - 1e-15)
    share = np.where(last, 1.0, share)
    part = np.diff(share, axis=1, prepend=0.0)
    costs = np.where(has, values[order][None, :], 0.0)
    return np.asarray((part * costs).sum(axis=1), dtype=np.float64)


@dataclass(frozen=True)
class _PlannedWork:
    """Per candidate [N], what its workloads offer at the planned load: the host I/O rate, the
    busy seconds per second at the ports, the processors, the DA pairs and the drives (the
    last two at least: `_skewed_min`, `_present_min`), the no-queueing part of the response
    summed over the I/O (rate x (front end + miss)), and the processor cores. (The ports'
    busy seconds are also their service summed over the I/O, which the response bound
    takes.)"""

    x_now: FloatArray
    port: FloatArray
    server: FloatArray
    da: FloatArray
    drives: FloatArray
    visible: FloatArray
    cores: FloatArray


def _in_pool(kinds: Sequence[RankKind], pool: str) -> BoolArray:
    return np.array([k.pool == pool for k in kinds])


@dataclass(frozen=True)
class PlannedResponse:
    """Per candidate [N], what its response bound takes of its work at the planned load
    (`_PlannedWork`): the host I/O rate, the ports' busy seconds per second and the
    no-queueing part of the response summed over the I/O."""

    x_now: FloatArray
    port: FloatArray
    visible: FloatArray


def planned_response(
    profiles: Sequence[Profile],
    space: Space,
    kinds: Sequence[RankKind],
    workloads: Sequence[tuple[str, float, SkewCurve | None]],
) -> PlannedResponse:
    """Every candidate's `PlannedResponse`, from its profile and its rank counts: made once
    for `unsaturated_responses` and `screen` both."""
    N = len(space.profile)
    capacity_gb = space.ranks * np.array([k.capacity_gb for k in kinds])[None, :]
    x_now, port, visible = np.zeros(N), np.zeros(N), np.zeros(N)
    for p_index, prof in enumerate(profiles):
        rows = np.flatnonzero(space.profile == p_index)
        if rows.size == 0:
            continue
        cap = capacity_gb[rows]
        for w, (pool, workload_gb, skew) in enumerate(workloads):
            rate = prof.rates[w]
            if rate <= 0:
                continue
            in_pool = _in_pool(kinds, pool)
            pool_cap = np.where(in_pool[None, :], cap, 0.0)
            miss = _skewed_min(
                np.where(in_pool, prof.miss_s[w], np.inf), pool_cap, skew, workload_gb
            )
            x_now[rows] += rate
            port[rows] += rate * prof.port_s[w]
            visible[rows] += rate * (prof.front_s[w] + prof.miss_fraction[w] * miss)
    return PlannedResponse(x_now, port, visible)


def _planned_work(
    profiles: Sequence[Profile],
    space: Space,
    kinds: Sequence[RankKind],
    workloads: Sequence[tuple[str, float, SkewCurve | None]],
    planned: PlannedResponse | None = None,
) -> _PlannedWork:
    """Every candidate's work at the planned load, from its profile and its rank counts
    (`planned`: its response part, where made already)."""
    N = len(space.profile)
    if planned is None:
        planned = planned_response(profiles, space, kinds, workloads)
    x_now, port, visible = planned.x_now, planned.port, planned.visible
    capacity_gb = space.ranks * np.array([k.capacity_gb for k in kinds])[None, :]
    present = space.ranks > 0
    server = np.zeros(N)
    da = np.zeros(N)
    drives = np.zeros(N)
    cores = np.zeros(N)
    for p_index, prof in enumerate(profiles):
        rows = np.flatnonzero(space.profile == p_index)
        if rows.size == 0:
            continue
        cap = capacity_gb[rows]
        has = present[rows]
        cores[rows] = prof.cores
        for w, (pool, workload_gb, skew) in enumerate(workloads):
            rate = prof.rates[w]
            if rate <= 0:
                continue
            in_pool = _in_pool(kinds, pool)
            pool_cap = np.where(in_pool[None, :], cap, 0.0)
            pool_has = has & in_pool[None, :]
            server[rows] += rate * prof.server_s[w]
            da[rows] += rate * (
                _present_min(prof.da_small_s[w], pool_has)
                + _present_min(prof.da_seq_s[w], pool_has)
            )
            drives[rows] += rate * (
                _skewed_min(
                    np.where(in_pool, prof.drive_small_s[w], np.inf), pool_cap, skew, workload_gb
                )
                + _present_min(prof.drive_seq_s[w], pool_has)
            )
    return _PlannedWork(x_now, port, server, da, drives, visible, cores)


def _response_lb(
    u_port: FloatArray, port: FloatArray, visible: FloatArray, x_now: FloatArray
) -> FloatArray:
    """The no-queueing response bound (module docstring) of candidates whose ports are
    `u_port` busy ([N], or [P, N] over periods), from their planned work (`_PlannedWork`): at
    the ports S (1 + u / (2 (1 - u))), the service and at least half the M/M/1 wait; inf
    where the ports saturate. The caller silences numpy's warnings where it must."""
    ports = np.where(
        u_port < 1, port * (1 + 0.5 * u_port / np.where(u_port < 1, 1 - u_port, 1.0)), np.inf
    )
    return np.where(x_now > 0, (ports + visible) / np.where(x_now > 0, x_now, 1.0), 0.0)


def unsaturated_responses(
    profiles: Sequence[Profile],
    space: Space,
    kinds: Sequence[RankKind],
    workloads: Sequence[tuple[str, float, SkewCurve | None]],
    planned: PlannedResponse,
) -> FloatArray | None:
    """Every candidate's response bound at the planned load (`screen`'s `response_lb_s`), where
    a few figures per profile prove that `screen` saturates none of them there; None where
    they do not (then `screen` says which it saturates). This is all a search that skips
    nothing asks of the bounds before it solves (`Bounded`), at a fraction of `screen`.

    The proof bounds each profile's candidates as one group. `screen` saturates a candidate
    where one of its four utilisations at the planned load reaches 1 + MARGIN. Per profile:
    the ports' utilisation is computed per candidate, as `screen` computes it; the
    processors' is one figure (the load and the cores are the profile's); the DA pairs' is
    sum_w rate_w (min over the kinds present of the small work + the same of the
    sequential) / pairs, at most sum_w rate_w (the most over the pool's kinds + the most) /
    the fewest pairs among the candidates; the drives' is sum_w rate_w (the skewed least
    small work + the least sequential) / capacity, at most the same with the most over the
    pool's kinds / the least capacity among the candidates, because the skewed least work
    (`_skewed_min`) is a mean of the kinds' work weighted by the share increments, which are
    at least 0 (a skew curve F never falls: the hottest fraction c of the capacity is within
    the hottest fraction c' > c) and sum to 1. Larger operands in the same operations round
    to results no smaller, and a weighted mean rounds within a few units in the last place
    of its largest term: a group figure below 1 proves each candidate's below 1 + MARGIN.
    tests/analyses/test_sizing_pruning.py checks it, and the responses, against `screen`."""
    x_now, port, visible = planned.x_now, planned.port, planned.visible
    u_port = port / space.host_ports  # validated: at least one port, and one DA pair
    if not kinds or (u_port >= 1).any():
        return None
    capacity = (
        space.ranks * np.array([k.active_drives * k.drive_capacity for k in kinds])[None, :]
    ).sum(axis=1)
    in_pool = np.array([[k.pool == pool for k in kinds] for pool, _, _ in workloads])
    for p_index, prof in enumerate(profiles):
        rows = np.flatnonzero(space.profile == p_index)
        if rows.size == 0:
            continue
        # The most over each workload's pool's kinds [4, W] (0 where the pool has none).
        work = np.stack([prof.da_small_s, prof.da_seq_s, prof.drive_small_s, prof.drive_seq_s])
        da_small, da_seq, drive_small, drive_seq = np.maximum(
            np.where(in_pool[None, :, :], work, -np.inf).max(axis=2), 0.0
        ).tolist()
        server = da = drives = 0.0
        for w, rate in enumerate(prof.rates.tolist()):
            if rate <= 0:
                continue
            server += rate * float(prof.server_s[w])
            da += rate * (da_small[w] + da_seq[w])
            drives += rate * (drive_small[w] + drive_seq[w])
        least = float(capacity[rows].min())
        if (
            server / max(prof.cores, 1) >= 1
            or da / float(space.da_pairs[rows].min()) >= 1
            or least <= 0
            or drives / least >= 1
        ):
            return None
    return _response_lb(u_port, port, visible, x_now)


def screen(
    profiles: Sequence[Profile],
    space: Space,
    kinds: Sequence[RankKind],
    workloads: Sequence[tuple[str, float, SkewCurve | None]],
    limits: Limits,
    drive_busy: bool = False,
    planned: PlannedResponse | None = None,
) -> Screen:
    """The bounds of every candidate of `space` (module docstring), vectorised over them.
    `workloads`: each workload's pool, capacity (GB) and skew curve (None: no skew bound).
    `drive_busy`: bound the busiest drive's utilisation also by `busy_at_least` of the mean
    offered work per drive (the batched search's; the per-configuration search keeps the
    bounds its results were published with). `planned`: the candidates' `planned_response`,
    where made already."""
    N = len(space.profile)
    drive_capacity = np.array([k.active_drives * k.drive_capacity for k in kinds])
    work = _planned_work(profiles, space, kinds, workloads, planned)
    x_now, port, server, da, drives = work.x_now, work.port, work.server, work.da, work.drives
    visible, cores = work.visible, work.cores
    # Utilisation at the planned load (scaled by each growth factor below).
    total_drive_capacity = (space.ranks * drive_capacity[None, :]).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        u_port = port / space.host_ports
        u_server = server / np.maximum(cores, 1)
        u_da = da / space.da_pairs
        u_drives = np.where(total_drive_capacity > 0, drives / total_drive_capacity, np.inf)
    groups = (
        ("host ports", u_port, limits.host_adapter, "exact: the load is split evenly"),
        ("processors", u_server, limits.processor, "the servers' mean"),
        ("DA pairs", u_da, limits.device_adapter, "at least: the pairs' mean"),
        (
            "drives",
            u_drives,
            limits.rank,
            "at least: offered work over capacity"
            + (", or the busy share of a drive as fast as any can be" if drive_busy else ""),
        ),
    )
    active = (space.ranks * np.array([float(k.active_drives) for k in kinds])[None, :]).sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_drive = np.where(active > 0, drives / np.where(active > 0, active, 1.0), 0.0)

    # Every period at once: the load times each factor [P, 1], against the candidates [N].
    factors = np.array([1.0, *limits.factors])[:, None]
    utilization = [u[None, :] * factors for _, u, _, _ in groups]  # [P, N] each
    if drive_busy:
        utilization[3] = np.maximum(utilization[3], busy_at_least(per_drive[None, :] * factors))
    with np.errstate(divide="ignore", invalid="ignore"):
        r_lb = _response_lb(u_port[None, :] * factors, port, visible, x_now)
    # The checks in the order they are reported, [P x 5, N]: per period, each group, then the
    # response; a candidate's reason is the first it breaks.
    checks = len(groups) + 1
    broken = np.stack(
        [
            *(u > g[2] * (1 + MARGIN) for u, g in zip(utilization, groups, strict=True)),
            r_lb > limits.response_s * (1 + MARGIN),
        ],
        axis=1,
    ).reshape(len(factors) * checks, N)
    values = np.stack([*utilization, r_lb * 1e3], axis=1).reshape(len(factors) * checks, N)
    texts: list[str] = []
    for label in limits.periods:
        texts += [
            f"{name} utilisation {{:.1%}} > {ceiling:.0%} {label} ({how})"
            for name, _, ceiling, how in groups
        ]
        texts.append(f"response time at least {{:.3g}} ms > {limits.response_s * 1e3:g} ms {label}")
    fails = np.asarray(broken.any(axis=0), dtype=np.bool_)
    first = broken.argmax(axis=0)
    why = np.where(fails, first, -1).astype(np.int64)
    why_value = np.where(fails, values[first, np.arange(N)], 0.0)
    saturated_now = np.zeros(N, dtype=bool)
    for _, u_now, _, _ in groups:
        saturated_now |= u_now >= 1 + MARGIN
    r_now = np.where(saturated_now, np.inf, r_lb[0])
    lows = np.array([u[0] for u in utilization])
    return Screen(r_now, saturated_now, fails, why, why_value, tuple(texts), lows)


def busy_at_least(work: FloatArray) -> FloatArray:
    """The least share of time a drive offered `work` (busy seconds at queue length one per
    second, a = lam s) is busy: 1 - exp(-a), the busy probability of the fastest drive the
    model allows. A drive is a load-dependent station (`queueing.station.load_dependent`)
    whose rate with n queued is alpha(n) / s, idle with probability
    p(0) = 1 / (1 + sum_n a^n / prod_{i<=n} alpha(i)); no drive serves faster than one request
    per request queued, alpha(n) <= n (`size_profile.most_per_drive`, tested for every
    catalog drive), so each term is at least a^n / n! and p(0) at most exp(-a), the M/M/inf
    station's (Kleinrock 1975, §3.8). The busiest drive is offered at least the mean work
    over the drives, and busy at least this of it."""
    return np.asarray(-np.expm1(-np.maximum(work, 0.0)), dtype=np.float64)


class Solved:
    """The configurations the search has solved, in the order it solved them: each one's index,
    its response now (seconds; None where it has none) and whether it meets the service level.
    The search solves cheapest first (`size._search`), so each is no dearer (cost, then power)
    than any configuration asked about after it; rule B's first test then needs only the first
    of them faster by the margin, found by bisection over the least response so far (kept
    times the margin, negated, so it never falls) instead of a pass over all of them."""

    def __init__(self, same_response: float) -> None:
        self.margin = (1 + same_response) ** 2
        self.entries: list[tuple[int, float | None, bool]] = []
        self._least: list[float] = []  # -(least of r * margin over the first k + 1)

    def add(self, i: int, response_s: float | None, meets: bool) -> None:
        self.entries.append((i, response_s, meets))
        scaled = -np.inf if response_s is None else -(response_s * self.margin)
        self._least.append(max(self._least[-1], scaled) if self._least else scaled)

    def first_faster(self, than_s: float) -> tuple[int, float] | None:
        """The first solved configuration d with R(d) (1 + s)^2 < `than_s`: its index and
        response."""
        k = bisect.bisect_right(self._least, -than_s)
        if k == len(self._least):
            return None
        j, r, _ = self.entries[k]
        assert r is not None
        return j, r


def skippable(
    bounds: Screen | Bounded,
    i: int,
    cost: Sequence[tuple[float, float]],
    upgrade: Sequence[bool],
    solved: Solved,
) -> tuple[str, str] | None:
    """Why candidate `i` of the screen may be skipped (rule A or B of the module docstring):
    (the bound, its figures), or None. `cost`: every candidate's (cost, power); `solved`: the
    candidates solved so far, each no dearer than `i`."""
    if bounds.saturated[i]:
        return "saturation", bounds.reason_of(i)
    r_lb = float(bounds.response_lb_s[i])
    beaten_by = solved.first_faster(r_lb * (1 - MARGIN))
    if beaten_by is None:
        return None
    assert cost[beaten_by[0]] <= cost[i]
    beaten = (
        f"at least {r_lb * 1e3:.4g} ms now against {beaten_by[1] * 1e3:.4g} ms of a "
        "configuration no dearer (faster beyond the margin 1.01^2)"
    )
    if bounds.fails[i]:
        return "service level", f"{bounds.reason_of(i)}; {beaten}"
    cheaper = any(meets and cost[j] < cost[i] for j, _, meets in solved.entries)
    cheaper_upgrade = not upgrade[i] or any(
        meets and upgrade[j] and cost[j] < cost[i] for j, _, meets in solved.entries
    )
    if cheaper and cheaper_upgrade:
        return "cost", f"a cheaper configuration meets the service level; {beaten}"
    return None
