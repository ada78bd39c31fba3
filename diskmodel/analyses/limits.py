"""Planning limits: the service level at an operating point, and the highest load meeting it.

A limit is a response-time target (mean over all host I/O, or over reads) or a utilisation
ceiling for one component kind (the busiest component of that kind): every kind the service
level has a ceiling for, so a z/OS configuration's FICON channels too
(`ServiceLevelConfig.of`). Each is evaluated at an operating point; the highest total rate at
which it is still met is found on the curve's points first, then between the last point that
meets it and the first that does not (`model.bracket.highest_passing`), each probe an
operating point of its own (placed for its load).

What binds is answered once, by `binding_names`, for the planning maximum, the planned load
(the report's cards) and every growth step: the limits in the order a rising load breaks them
(`reach_order`: by the highest load meeting each), so the limit named at a growth step where
several are broken is the one the planning maximum names; a saturated point names the
saturated station first ("saturated: DA pair 0"), then every limit it breaks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.configuration import ServiceLevelConfig
from diskmodel.model.bracket import highest_passing
from diskmodel.model.network import Network
from diskmodel.model.open import class_rates
from diskmodel.model.operating import OpenLoads, OperatingPoint
from diskmodel.prediction import LimitResult, ServiceLevelResult
from diskmodel.units import MS
from diskmodel.vocabulary import COMPONENT_KIND, STATION_KIND_KEYS

FloatArray = NDArray[np.float64]

# Steps of the search between two curve points (it stops at 1e-4 of the load first).
_STEPS = 30


class _Unread:
    """A limit's value not read yet (`Limit.met`)."""


UNREAD = _Unread()
"""The marker `Limit.met` takes for a value it reads itself (no state: a sentinel)."""


@dataclass(frozen=True)
class Limit:
    """One planning limit: what it measures at an operating point and its target."""

    kind: str  # response_time | read_response_time | utilization
    label: str
    target: float
    component_kind: str | None = None

    def value(self, point: OperatingPoint) -> float | None:
        """The measured value at `point` (ms for times, a fraction for utilisation); None where
        it has no steady state."""
        if self.kind == "response_time":
            r = point.response_s
            return r / MS if math.isfinite(r) else None
        if self.kind == "read_response_time":
            r = read_response_s(point)
            return r / MS if math.isfinite(r) else None
        return busiest_of_kind(point, self.component_kind or "")[1]

    def exceeded(self, point: OperatingPoint) -> bool:
        """The value at `point` is above the target, or has no steady state (a response
        time past saturation); a utilisation within its ceiling at a point saturated
        elsewhere is not exceeded."""
        return self.broken_by(self.value(point))

    def broken_by(self, value: float | None) -> bool:
        """A value (`value`) above the target, or none (no steady state)."""
        return value is None or value > self.target * (1 + 1e-12)

    def met(self, point: OperatingPoint, value: float | _Unread | None = UNREAD) -> bool:
        """Within the target at `point`, which is not saturated: no limit is met at a
        saturated point, whatever its value there. `value`: the value at `point`, where
        read already (`first_broken_each`); else read here, and only if needed."""
        if point.saturated:
            return False
        return not self.broken_by(self.value(point) if isinstance(value, _Unread) else value)


def limits(level: ServiceLevelConfig) -> tuple[Limit, ...]:
    """The service level's limits: the response-time targets, then a ceiling for each component
    kind in `level.utilization` (the four every configuration has, in `COMPONENT_KINDS` order,
    then the FICON channels where the configuration has them)."""
    out = [
        Limit(
            "response_time",
            f"response time ≤ {level.response_time_ms:g} ms",
            level.response_time_ms,
        )
    ]
    if level.read_response_time_ms is not None:
        out.append(
            Limit(
                "read_response_time",
                f"read response time ≤ {level.read_response_time_ms:g} ms",
                level.read_response_time_ms,
            )
        )
    for kind, ceiling in level.utilization.items():
        out.append(
            Limit(
                "utilization",
                f"{COMPONENT_KIND[kind].ceiling} utilisation ≤ {ceiling:.0%}",
                ceiling,
                kind,
            )
        )
    return tuple(out)


def utilization_kinds(level: Sequence[Limit]) -> tuple[str, ...]:
    """The component kinds `level` has a utilisation ceiling for, in the service level's order
    (`STATION_KIND_KEYS`: the four kinds, then the channels), whatever order `level` is in."""
    kinds = {lim.component_kind for lim in level if lim.kind == "utilization"}
    return tuple(kind for kind in STATION_KIND_KEYS if kind in kinds)


def read_response_s(point: OperatingPoint) -> float:
    """Mean response of the host reads (inf where unknown; 0 with no reads)."""
    net = point.network
    weights = class_rates(net, point.rates[:, None])[:, 0]
    reads = np.array(["read" in c for _, c in net.times.keys], dtype=bool)
    used = reads & (weights > 0)
    if not used.any():
        return 0.0
    if not np.all(np.isfinite(point.class_response_s[used])):
        return float("inf")
    return float(weights[used] @ point.class_response_s[used] / weights[used].sum())


def busiest_of_kind(point: OperatingPoint, kind: str) -> tuple[str, float]:
    """The busiest station of a component kind and its utilisation."""
    members = point.network.stations_of_kind(kind)
    if not len(members):
        return "", 0.0
    k = int(members[point.utilization[members].argmax()])  # the first of equals, as max()
    return point.network.stations[k].name, float(point.utilization[k])


def first_broken(point: OperatingPoint, level: Sequence[Limit]) -> Limit | None:
    """The first limit (in the service level's order) not met at `point` (the sizing search,
    which has no curve to order the limits by; elsewhere `binding_names`)."""
    return next((lim for lim in level if not lim.met(point)), None)


def first_broken_each(
    points: Sequence[OperatingPoint], level: Sequence[Limit]
) -> list[Limit | None]:
    """`first_broken` at each of `points`, the same limits. Where the points share one network
    (a sizing configuration's planned and growth points: one placement), each utilisation
    ceiling's busiest station is read for all of them at once (`_peaks`): `busiest_of_kind`
    per point and per ceiling was most of a candidate's summing up."""
    network = points[0].network if points else None
    if network is None or any(p.network is not network for p in points):
        return [first_broken(p, level) for p in points]
    utilization = np.array([p.utilization for p in points])  # [points, stations]
    peaks = _peaks(network, utilization, level)
    read = [(lim, _peak(peaks, lim)) for lim in level]
    return _first_broken_read(
        level, [p.saturated for p in points], read, lambda lim, j: lim.value(points[j])
    )


def first_broken_over(
    many: Sequence[OpenLoads], level: Sequence[Limit], responses_s: Sequence[float]
) -> list[Limit | None]:
    """`first_broken` at every load of `many` (each one network's loads as arrays), in order,
    read over all of them at once: each utilisation ceiling's busiest station
    (`_peaks_over`) and the mean responses, given (`responses_s`: `operating.open_responses`);
    a read response time at a load's own point."""
    peaks = _peaks_over(many, level)
    responses = [r / MS if math.isfinite(r) else None for r in responses_s]
    read = [(lim, responses if lim.kind == "response_time" else _peak(peaks, lim)) for lim in level]
    at = [(loads, p) for loads in many for p in range(loads.width)]
    saturated = np.concatenate([loads.saturated for loads in many]).tolist() if many else []

    def value_at(limit: Limit, j: int) -> float | None:
        loads, p = at[j]
        return limit.value(loads.point(p))

    return _first_broken_read(level, saturated, read, value_at)


def _first_broken_read(
    level: Sequence[Limit],
    saturated: Sequence[bool],
    read: Sequence[tuple[Limit, Sequence[float | None] | None]],
    value_at: Callable[[Limit, int], float | None],
) -> list[Limit | None]:
    """The first limit broken at each of several points (`first_broken`), whether each is
    saturated given, and per limit its values at every point where read already (`read`;
    None: `value_at` reads it per point): what `Limit.broken_by` compares, the limits in one
    loop, not a call each."""
    out: list[Limit | None] = []
    for j, at_saturation in enumerate(saturated):
        if at_saturation:  # no limit is met at a saturated point (`Limit.met`)
            out.append(level[0] if level else None)
            continue
        broken = None
        for lim, values in read:
            if lim.broken_by(value_at(lim, j) if values is None else values[j]):
                broken = lim
                break
        out.append(broken)
    return out


def _peak(peaks: dict[str, list[float]], limit: Limit) -> list[float] | None:
    """A utilisation ceiling's values from `_peaks` (None for another limit)."""
    return peaks[limit.component_kind or ""] if limit.kind == "utilization" else None


def _wanted(level: Sequence[Limit]) -> tuple[list[str], NDArray[np.int64]]:
    """The component kinds `level` has a utilisation ceiling for, each once, and each one's
    index among the networks' station kinds (-1: none of its stations)."""
    kinds = [lim.component_kind or "" for lim in level if lim.kind == "utilization"]
    wanted = list(dict.fromkeys(kinds))
    index = np.array(
        [STATION_KIND_KEYS.index(k) if k in COMPONENT_KIND else -1 for k in wanted], dtype=np.int64
    )
    return wanted, index


def _peaks(
    network: Network, utilization: FloatArray, level: Sequence[Limit]
) -> dict[str, list[float]]:
    """`_peaks_of` at several points of one network (utilization [points, stations])."""
    return _peaks_of([(network.times.kind_of_station, utilization)], level)


def _peaks_over(many: Sequence[OpenLoads], level: Sequence[Limit]) -> dict[str, list[float]]:
    """`_peaks_of` at every load of `many` (each one network's loads), in order."""
    return _peaks_of(
        [(loads.network.times.kind_of_station, loads.utilization.T) for loads in many], level
    )


def _peaks_of(
    parts: Sequence[tuple[NDArray[np.int64], FloatArray]], level: Sequence[Limit]
) -> dict[str, list[float]]:
    """Per component kind `level` has a utilisation ceiling for, the utilisation of its
    busiest station at every point of `parts` (each a network's kind of each station,
    `ClassTimes.kind_of_station`, and its stations' utilisation at some points [points,
    stations]), in order, as `busiest_of_kind` gives it (0 with none), all at once: every
    point's stations one after another, each kind's busiest per point its members' maximum
    (the maximum of the same values, whatever their order). The stations of a kind are
    those `Network.stations_of_kind` gives, read from the network's kind of each station, so
    that the members of every kind are not listed one kind at a time."""
    wanted, index = _wanted(level)
    at_points = [kinds for kinds, utilization in parts for _ in range(len(utilization))]
    if not wanted or not at_points:
        return {kind: [] for kind in wanted}
    kind = np.concatenate(at_points)
    point = np.repeat(np.arange(len(at_points)), [len(k) for k in at_points])
    utilization = np.concatenate([u for _, u in parts], axis=None)
    busiest = np.full((len(wanted), len(at_points)), -np.inf)
    for k, at in enumerate(index.tolist()):
        member = kind == at
        np.maximum.at(busiest[k], point[member], utilization[member])
    busiest = np.where(busiest == -np.inf, 0.0, busiest)  # no station of the kind: 0
    return {kind: busiest[k].tolist() for k, kind in enumerate(wanted)}


SATURATED = "saturated"
"""How `binding_names` starts at a saturated point: "saturated: <station>"."""


def reach_order(level: Sequence[Limit], reached: Sequence[float | None]) -> tuple[Limit, ...]:
    """The limits in the order a rising load breaks them: by `reached`, the highest load
    meeting each (None: it holds up to saturation, so it comes last), ties in the service
    level's order. Its first limit with a load is the one the planning maximum names."""
    ranked = sorted(
        range(len(level)),
        key=lambda i: (math.inf if reached[i] is None else reached[i], i),
    )
    return tuple(level[i] for i in ranked)


def saturated_station(point: OperatingPoint, bottleneck: str | None = None) -> str:
    """The saturated station to name at a saturated `point`: `bottleneck` (the first to
    saturate along the load's mix) where it is saturated there or no station's state says so
    (a point at the maximum), else the first saturated."""
    names = [s.name for s in point.network.stations]
    saturated = [names[k] for k in np.flatnonzero(point.station_saturated)]
    if bottleneck is not None and (bottleneck in saturated or not saturated):
        return bottleneck
    return saturated[0] if saturated else ""


def binding_names(
    point: OperatingPoint,
    ordered: Sequence[Limit],
    bottleneck: str | None = None,
    *,
    saturated: bool | None = None,
) -> tuple[str, ...]:
    """What binds at `point`, first what binds first: at a saturated point "saturated:
    <station>" (`saturated_station`), then the label of every limit exceeded there, in
    `ordered` (`reach_order`). Empty when every limit is met. `saturated`: the point is
    saturated although its own state does not say so (it is at the maximum, where the
    analyses call it saturated: `analyses.curve.at_or_past`)."""
    names = []
    if point.saturated or saturated:
        station = saturated_station(point, bottleneck)
        names.append(f"{SATURATED}: {station}" if station else SATURATED)
    names.extend(lim.label for lim in ordered if lim.exceeded(point))
    return tuple(names)


def highest_load_meeting(
    limit: Limit,
    points: Sequence[tuple[float, OperatingPoint]],
    at: Callable[[float], OperatingPoint],
) -> float | None:
    """The highest total rate at which `limit` holds: None where it holds at every point of
    the curve `points` (ascending total rate, up to saturation; a saturated point where its
    value is within the target holds it); 0 where it fails at once.

    Between the last curve point that meets it and the first that does not, the crossing of
    value - target is found by regula falsi (Illinois), falling back to halving where the
    value has no steady state; to 1e-4 of the bracket's upper end."""
    lo, f_lo = 0.0, -limit.target
    for x, point in points:
        value = limit.value(point)
        if not limit.met(point):
            if point.saturated and value is not None and value <= limit.target:
                # Saturated elsewhere with this ceiling still met: the load it can carry ends
                # at saturation before the ceiling is reached, so the ceiling never binds (a
                # crossing searched here would report saturation as the ceiling's load).
                return None
            return _crossing(
                limit, at, lo, f_lo, x, None if value is None else value - limit.target
            )
        lo, f_lo = x, (value if value is not None else 0.0) - limit.target
    return None


def _crossing(
    limit: Limit,
    at: Callable[[float], OperatingPoint],
    lo: float,
    f_lo: float,
    hi: float,
    f_hi: float | None,
) -> float:
    def probe(x: float) -> tuple[bool, float | None]:
        point = at(x)
        value = limit.value(point)
        if limit.met(point):
            return True, (value if value is not None else 0.0) - limit.target
        return False, None if value is None else value - limit.target

    return highest_passing(probe, lo, f_lo, hi, f_hi, max_probes=_STEPS)


def service_level_result(
    level: Sequence[Limit],
    planned: OperatingPoint,
    curve: Sequence[tuple[float, OperatingPoint]],
    at: Callable[[float], OperatingPoint],
    saturation_iops: float,
    bottleneck: str | None = None,
) -> tuple[ServiceLevelResult, tuple[Limit, ...]]:
    """Every limit at the planned point and the highest load meeting it; the planning maximum
    is the lowest of those (saturation when every limit holds up to it), and `broken` what
    binds at the planned load (`binding_names`). Also the limits in the order a rising load
    breaks them (`reach_order`), for the growth steps."""
    results = []
    for limit in level:
        highest = highest_load_meeting(limit, curve, at)
        component = None
        if limit.kind == "utilization":
            # The component that reaches the ceiling first (the busiest at the planned load
            # when the ceiling holds up to saturation).
            where = planned if highest is None or highest <= 0 else at(highest)
            component = busiest_of_kind(where, limit.component_kind or "")[0]
        results.append(
            LimitResult(
                kind=limit.kind,
                label=limit.label,
                target=limit.target,
                value=limit.value(planned),
                met=limit.met(planned),
                max_iops=highest,
                component=component,
            )
        )
    ordered = reach_order(level, [r.max_iops for r in results])
    first = results[list(level).index(ordered[0])] if ordered else None
    binding = first if first is not None and first.max_iops is not None else None
    rt = next(r for r in results if r.kind == "response_time")
    result = ServiceLevelResult(
        met=all(r.met for r in results),
        max_iops=binding.max_iops
        if binding is not None and binding.max_iops is not None
        else saturation_iops,
        binding=binding.label if binding is not None else "saturation",
        iops_at_target=rt.max_iops,
        limits=tuple(results),
        broken=binding_names(planned, ordered, bottleneck),
    )
    return result, ordered
