"""Fixed, made-up predictions for the report tests: the report's input, built by hand.

The report reads only a `Prediction`, so its tests build Predictions directly: no scenario, no
model. The numbers come from a few stated per-operation costs and M/M/1 at each station, so
that they are plausible, deterministic, self-consistent (the planned point lies on the curve,
growth says "saturated" exactly past `max_iops`, the planning maximum is the lowest limit) and
independent of the storage model, whose numbers change as it is calibrated: a gold file of the
page must not change with them. The catalog figures are the shipped catalog's, with their
source texts (the gold files mask them). Component names follow the model's ("host port 0",
"server 0 (4-way)", "DA pair 1", "rank 3 (pool, drive raid, DA 1)").
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from diskmodel.catalog import iter_figures, load_catalog
from diskmodel.prediction import (
    CalibratedParameter,
    CalibrationFigure,
    CalibrationFinding,
    CalibrationResult,
    ClosedPoint,
    ClosedSystemResult,
    ComponentResult,
    CurvePoint,
    DefaultUsed,
    Figure,
    GrowthPoint,
    Inputs,
    IoTypeResult,
    LimitResult,
    PoolInput,
    Prediction,
    RankGroupInput,
    RankResult,
    ScenarioPrediction,
    ServiceLevelInput,
    ServiceLevelResult,
    SkewCurveResult,
    SystemInput,
    TierPoint,
    TierResult,
    TierSweepPoint,
    WorkloadInput,
    WorkloadResult,
)

# Per-operation service times (ms) of the made-up stations; the DS8700's adapters are slower.
PORT_MS = {"ds8800-951": 0.025, "ds8700-941": 0.045}
SERVER_MS = {"ds8800-951": 0.030, "ds8700-941": 0.034}
DA_MS = {"ds8800-951": 0.020, "ds8700-941": 0.100}
DRIVE_MS = {"ssd": 0.25, "enterprise": 5.6, "nearline": 11.0}
TIERS = ("ssd", "enterprise", "nearline")
CEILINGS = {"host_adapter": 0.7, "processor": 0.7, "device_adapter": 0.7, "rank": 0.7}
KIND_WORD = {
    "host_adapter": "host port",
    "processor": "processor",
    "device_adapter": "DA pair",
    "rank": "rank",
}


@dataclass(frozen=True)
class Group:
    """Identical ranks of one pool."""

    pool: str
    tier: str
    drive: str
    raid: str
    count: int
    da_pair: int | None = None  # all on one DA pair, else spread


@dataclass(frozen=True)
class Load:
    """One workload as the fixture uses it."""

    name: str
    pool: str
    iops: float = 0.0
    read_fraction: float = 0.7
    read_hit_ratio: float = 0.5
    read_hit_ratio_basis: str = "as given"
    destage_ratio: float = 0.6
    capacity_gb: float = 10_000.0
    skew: str = "none (uniform)"
    skew_k: float = 0.0  # steepness of the made-up exponential skew curve; 0 is uniform
    population: int | None = None
    population_kind: str = "iops"


@dataclass(frozen=True)
class Config:
    """One configuration of a fixture case."""

    name: str
    model: str
    ports: int
    da_pairs: int
    groups: tuple[Group, ...]
    loads: tuple[Load, ...]
    easy_tier: dict[str, str] = field(default_factory=dict)
    ssd_share: float = 0.0  # SSD tier's share of an Easy Tier pool's small I/O at light load
    ssd_limit_iops: float = math.inf  # above this host rate the SSD share falls as 1/x
    growth: tuple[float, ...] = ()
    target_ms: float = 5.0
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Rank:
    index: int
    pool: str
    tier: str
    drive: str
    raid: str
    da_pair: int
    server: int

    @property
    def name(self) -> str:
        return f"rank {self.index} ({self.pool}, {self.drive} {self.raid}, DA {self.da_pair})"


def _ranks(config: Config) -> list[_Rank]:
    out: list[_Rank] = []
    for g in config.groups:
        for _ in range(g.count):
            i = len(out)
            pair = g.da_pair if g.da_pair is not None else i % config.da_pairs
            out.append(_Rank(i, g.pool, g.tier, g.drive, g.raid, pair, i % 2))
    return out


def _mm1(service_ms: float, utilization: float) -> tuple[float | None, float | None]:
    """(wait, response) of M/M/1, None at or past saturation."""
    if utilization >= 1.0:
        return None, None
    wait = service_ms * utilization / (1.0 - utilization)
    return wait, wait + service_ms


class _Model:
    """The made-up model of one configuration: station demands as functions of the host rate."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.ranks = _ranks(config)
        total = sum(w.iops for w in config.loads) or 1.0
        self.backend_per_io = sum(
            (w.iops or total / len(config.loads))
            / total
            * (
                w.read_fraction * (1 - w.read_hit_ratio)
                + 4 * (1 - w.read_fraction) * w.destage_ratio
            )
            for w in config.loads
        )
        self.pools = sorted({r.pool for r in self.ranks})
        self.reach: dict[str, float] = {}

    def ssd_share(self, pool: str, x: float) -> float:
        tiers = {r.tier for r in self.ranks if r.pool == pool}
        if "ssd" not in tiers:
            return 0.0
        if self.config.easy_tier.get(pool, "off") != "auto" or len(tiers) < 2:
            ssd = sum(1 for r in self.ranks if r.pool == pool and r.tier == "ssd")
            return ssd / sum(1 for r in self.ranks if r.pool == pool)
        share = self.config.ssd_share
        if x > self.config.ssd_limit_iops:
            share *= self.config.ssd_limit_iops / x
        return share

    def tier_shares(self, pool: str, x: float) -> dict[str, float]:
        tiers = [t for t in TIERS if any(r.pool == pool and r.tier == t for r in self.ranks)]
        ssd = self.ssd_share(pool, x)
        rest = [t for t in tiers if t != "ssd"]
        out = {"ssd": ssd} if "ssd" in tiers else {}
        weights = {"enterprise": 0.85, "nearline": 0.15}
        norm = sum(weights[t] for t in rest) or 1.0
        for t in rest:
            out[t] = (1 - ssd) * weights[t] / norm
        return out

    def rank_rate(self, rank: _Rank, x: float) -> float:
        pool_ranks = [r for r in self.ranks if r.pool == rank.pool]
        share = self.tier_shares(rank.pool, x)[rank.tier]
        same = sum(1 for r in pool_ranks if r.tier == rank.tier)
        pool_share = len(pool_ranks) / len(self.ranks)
        return x * self.backend_per_io * pool_share * share / same

    def stations(self, x: float) -> list[tuple[str, str, float, float]]:
        """(name, kind, service ms, utilisation) of every station at host rate x."""
        c = self.config
        out = [
            (
                f"host port {i}",
                "host_adapter",
                PORT_MS[c.model],
                x / c.ports * PORT_MS[c.model] / 1e3,
            )
            for i in range(c.ports)
        ]
        out += [
            (
                f"server {s} (4-way)",
                "processor",
                SERVER_MS[c.model],
                x / 2 * SERVER_MS[c.model] / 4e3,
            )
            for s in range(2)
        ]
        for d in range(c.da_pairs):
            rate = sum(self.rank_rate(r, x) for r in self.ranks if r.da_pair == d)
            out.append(
                (f"DA pair {d}", "device_adapter", DA_MS[c.model], rate * DA_MS[c.model] / 1e3)
            )
        for r in self.ranks:
            service = DRIVE_MS[r.tier]
            out.append((r.name, "rank", service, self.rank_rate(r, x) / 8 * service / 1e3))
        return out

    def peak(self, x: float, kind: str) -> tuple[str, float]:
        name, _, _, u = max((s for s in self.stations(x) if s[1] == kind), key=lambda s: s[3])
        return name, u

    def busiest(self, x: float) -> tuple[str, str, float]:
        name, kind, _, u = max(self.stations(x), key=lambda s: s[3])
        return name, kind, u

    def response(self, x: float) -> float | None:
        total = 0.0
        counts = {"host_adapter": self.config.ports, "processor": 2}
        for _, kind, service, u in self.stations(x):
            _, r = _mm1(service, u)
            if r is None:
                return None
            weight = 1.0 if kind in counts else self.backend_per_io / 2
            count = counts.get(
                kind, self.config.da_pairs if kind == "device_adapter" else len(self.ranks)
            )
            total += weight * r / count
        return total

    def rate_where(self, holds: Callable[[float], bool], upper: float) -> float:
        """The highest rate in (0, upper] at which `holds` is still true (bisection)."""
        low, high = 0.0, upper
        if holds(high):
            return high
        for _ in range(40):
            mid = 0.5 * (low + high)
            low, high = (mid, high) if holds(mid) else (low, mid)
        return low

    def max_iops(self) -> float:
        return self.rate_where(lambda x: self.busiest(x)[2] < 1.0, 1e7)


def _limits(m: _Model, x: float, max_iops: float) -> ServiceLevelResult:
    """The service level at host rate x; each limit's highest rate is found once per model."""
    c = m.config
    if not m.reach:
        m.reach["response_time"] = m.rate_where(
            lambda v: (m.response(v) or math.inf) <= c.target_ms, max_iops * 0.9999
        )
        for kind, ceiling in CEILINGS.items():
            m.reach[kind] = m.rate_where(
                lambda v, kind=kind, ceiling=ceiling: m.peak(v, kind)[1] <= ceiling, max_iops
            )
    rt = m.response(x)
    limits = [
        LimitResult(
            "response_time",
            f"response time ≤ {c.target_ms:g} ms",
            c.target_ms,
            rt,
            rt is not None and rt <= c.target_ms,
            m.reach["response_time"],
        )
    ]
    for kind, ceiling in CEILINGS.items():
        peak = m.peak(x, kind)[1]
        limits.append(
            LimitResult(
                "utilization",
                f"{KIND_WORD[kind]} utilisation ≤ {ceiling:.0%}",
                ceiling,
                peak,
                peak <= ceiling,
                m.reach[kind],
                m.peak(m.reach[kind], kind)[0],
            )
        )
    binding = min(limits, key=lambda lim: lim.max_iops if lim.max_iops is not None else math.inf)
    return ServiceLevelResult(
        met=all(lim.met for lim in limits),
        max_iops=binding.max_iops or max_iops,
        binding=binding.label,
        iops_at_target=m.reach["response_time"],
        limits=tuple(limits),
    )


def _skew_points(k: float, n: int = 21) -> tuple[tuple[float, float], ...]:
    if k == 0:
        return tuple((i / (n - 1), i / (n - 1)) for i in range(n))
    return tuple(
        (i / (n - 1), (1 - math.exp(-k * i / (n - 1))) / (1 - math.exp(-k))) for i in range(n)
    )


def _inputs(c: Config, m: _Model) -> Inputs:
    catalog = load_catalog()
    system = catalog.systems[c.model]
    adapter = system.host_adapter()
    groups: list[RankGroupInput] = []
    for g in c.groups:
        members = [
            r
            for r in m.ranks
            if (r.pool, r.tier, r.drive, r.raid) == (g.pool, g.tier, g.drive, g.raid)
        ]
        drive = catalog.drives[g.drive]
        raid = catalog.raid_formats[g.raid]
        pairs = sorted({r.da_pair for r in members})
        if any(x.pool == g.pool and x.drive == g.drive and x.raid == g.raid for x in groups):
            continue
        groups.append(
            RankGroupInput(
                pool=g.pool,
                tier=g.tier,
                drive=g.drive,
                drive_label=f"{drive.capacity_gb:g} GB "
                + ("SSD" if drive.kind == "ssd" else f"{drive.rpm / 1000:g}K RPM"),
                raid=g.raid,
                count=len(members),
                ranks_per_da_pair=tuple(
                    (p, sum(1 for r in members if r.da_pair == p)) for p in pairs
                ),
                ranks_per_server=tuple(
                    (s, sum(1 for r in members if r.server == s)) for s in (0, 1)
                ),
                capacity_gb=len(members) * raid.data_drives * drive.capacity_gb,
                drives=len(members) * raid.drives,
            )
        )
    pools = []
    for pool in m.pools:
        tiers = tuple(t for t in TIERS if any(r.pool == pool and r.tier == t for r in m.ranks))
        pools.append(
            PoolInput(
                name=pool,
                easy_tier=c.easy_tier.get(pool, "off"),
                utilization_target=0.7,
                tiers=tiers,
                tier_capacity_gb=tuple(
                    sum(grp.capacity_gb for grp in groups if grp.pool == pool and grp.tier == t)
                    for t in tiers
                ),
                ssd_ranks_per_server=tuple(
                    sum(1 for r in m.ranks if r.pool == pool and r.tier == "ssd" and r.server == s)
                    for s in (0, 1)
                ),
            )
        )
    workloads = tuple(
        WorkloadInput(
            name=w.name,
            pool=w.pool,
            load=w.population_kind,
            iops=w.iops if w.population is None else None,
            population=w.population,
            think_time_ms=0.0,
            read_fraction=w.read_fraction,
            read_hit_ratio=w.read_hit_ratio,
            read_hit_ratio_basis=w.read_hit_ratio_basis,
            destage_ratio=w.destage_ratio,
            read_size_kib=4.0,
            write_size_kib=4.0,
            read_sequential_fraction=0.0,
            write_sequential_fraction=0.0,
            capacity_gb=w.capacity_gb,
            skew=w.skew,
            pin_tier=None,
        )
        for w in c.loads
    )
    figures: list[Figure] = []
    entries: list[tuple[str, object]] = [(c.model, system)]
    entries += [(d, catalog.drives[d]) for d in sorted({g.drive for g in c.groups})]
    entries += [(r, catalog.raid_formats[r]) for r in sorted({g.raid for g in c.groups})]
    for entry_name, entry in entries:
        for key, value, provenance in iter_figures(entry):  # type: ignore[arg-type]
            if key.startswith("processor_options[") and not key.startswith(
                "processor_options[4-way]"
            ):
                continue
            if key.startswith("host_adapters[") and f"[{adapter.name}]" not in key:
                continue
            if isinstance(value, list):
                continue
            figures.append(Figure(entry_name, key, float(value), provenance.text()))
    defaults = (
        DefaultUsed(
            f"workloads.{c.loads[0].name}.read_size_kib", "4", "DB Open transfer size (C2)"
        ),
        DefaultUsed("service_level.response_time_ms", f"{c.target_ms:g}", "planning default"),
        DefaultUsed(
            "service_level.utilization.rank", "0.7", "queueing delay grows quickly past 70%"
        ),
    )
    return Inputs(
        system=SystemInput(
            model=c.model,
            label=f"{system.family} {system.machine_type}-{system.model}",
            processor=system.processor,
            servers=system.servers,
            processor_ways=4,
            clock_ghz=system.processor_option(4).clock_ghz,
            cache_gb=128.0,
            nvs_gb=128.0 * system.nvs_fraction,
            host_ports=c.ports,
            host_adapter=adapter.name,
            port_gbps=adapter.port_gbps,
            da_pairs=c.da_pairs,
            device_adapter=system.device_adapter.name,
        ),
        ranks=tuple(groups),
        pools=tuple(pools),
        workloads=workloads,
        service_level=ServiceLevelInput(c.target_ms, None, dict(CEILINGS)),
        figures=tuple(figures),
        defaults=defaults,
        assumptions=(
            "Each component is a queueing station solved in closed form at each load.",
            "Cache hits never reach the back end; destages per host write after write folding.",
        ),
    )


def make_prediction(c: Config) -> Prediction:
    """One configuration's made-up prediction at its planned load (or closed population)."""
    m = _Model(c)
    max_iops = m.max_iops()
    bottleneck, bottleneck_kind, _ = m.busiest(max_iops * 0.999)
    closed_load = next((w for w in c.loads if w.population is not None), None)
    closed = None
    if closed_load is not None:
        n_max = closed_load.population or 1

        def solve(n: int) -> tuple[float, float]:
            lo = m.rate_where(
                lambda v: v * ((m.response(v) or math.inf) / 1e3) <= n, max_iops * 0.9999
            )
            return lo, n / lo * 1e3

        populations = sorted({1, *range(8, n_max, max(1, n_max // 16)), n_max})
        points = tuple(ClosedPoint(n, *solve(n)) for n in populations)
        last = points[-1]
        closed = ClosedSystemResult(
            last.population,
            closed_load.population_kind,
            0.0,
            last.iops,
            last.response_time_ms,
            False,
            points,
        )
        planned = last.iops
    else:
        planned = sum(w.iops for w in c.loads)
    rt = m.response(planned) if closed is None else closed.response_time_ms
    components = tuple(
        ComponentResult(name, kind, min(u, 1.0), *_visit(service, u), u >= 1.0)
        for name, kind, service, u in m.stations(planned)
    )
    by_name = {cp.name: cp for cp in components}
    tiers: list[TierResult] = []
    for pool in m.pools:
        shares = m.tier_shares(pool, planned)
        data = sum(w.capacity_gb for w in c.loads if w.pool == pool)
        left = data
        for t, share in shares.items():
            members = [r for r in m.ranks if r.pool == pool and r.tier == t]
            capacity = sum(
                load_catalog().raid_formats[r.raid].data_drives
                * load_catalog().drives[r.drive].capacity_gb
                for r in members
            )
            used = min(left, capacity) if t != TIERS[-1] and len(shares) > 1 else left
            if len(shares) > 1 and t == list(shares)[-1]:
                used = left
            left -= used
            tiers.append(
                TierResult(
                    pool,
                    t,
                    len(members),
                    capacity,
                    used,
                    share,
                    share * 0.8 + 0.2 * used / data,
                    sum(m.rank_rate(r, planned) for r in members),
                    sum(by_name[r.name].utilization for r in members) / len(members),
                )
            )
    curve_x = sorted(
        {*(max_iops * k / 40 for k in range(1, 41)), *([planned] if closed is None else [])}
    )
    curve = tuple(_curve_point(m, x, x >= max_iops * (1 - 1e-12)) for x in curve_x)
    service_level = _limits(m, planned, max_iops)
    growth = tuple(_growth_point(m, f, planned, max_iops, c) for f in c.growth)
    w0 = c.loads[0]
    io_rt = rt
    workloads = tuple(
        WorkloadResult(
            w.name,
            w.pool,
            planned / len(c.loads),
            io_rt,
            None if io_rt is None else io_rt * 1.3,
            None if io_rt is None else 0.12,
            {
                "host_adapter": PORT_MS[c.model] * 1.1,
                "processor": SERVER_MS[c.model],
                "device_adapter": DA_MS[c.model] * m.backend_per_io,
                "rank": None if io_rt is None else max(0.0, io_rt - 0.1),
            },
            (
                IoTypeResult(
                    "read_hit",
                    w.read_fraction * w.read_hit_ratio,
                    0.09,
                    {"host_adapter": 0.03, "processor": 0.06},
                ),
                IoTypeResult(
                    "read_miss",
                    w.read_fraction * (1 - w.read_hit_ratio),
                    None if io_rt is None else io_rt * 2.2,
                    {
                        "host_adapter": 0.03,
                        "processor": 0.07,
                        "device_adapter": 0.05,
                        "rank": None if io_rt is None else io_rt * 2.2 - 0.15,
                    },
                ),
                IoTypeResult(
                    "random_write",
                    1 - w.read_fraction,
                    0.12,
                    {"host_adapter": 0.04, "processor": 0.08},
                ),
            ),
            w.read_hit_ratio,
        )
        for w in c.loads
    )
    ranks = tuple(
        RankResult(
            r.name,
            r.pool,
            r.tier,
            r.drive,
            r.raid,
            r.da_pair,
            r.server,
            m.rank_rate(r, planned),
            by_name[r.name].utilization,
        )
        for r in m.ranks
    )
    skew_curves = tuple(
        SkewCurveResult(w.name, w.pool, w.skew, _skew_points(w.skew_k), _skew_points(w.skew_k / 3))
        for w in c.loads
        if w.skew_k
    )
    del w0
    return Prediction(
        name=c.name,
        system=c.model,
        inputs=_inputs(c, m),
        max_iops=max_iops,
        bottleneck=bottleneck,
        bottleneck_kind=bottleneck_kind,
        destage_limited=bottleneck_kind in {"rank", "device_adapter"},
        planned_iops=planned,
        saturated=rt is None,
        response_time_ms=rt,
        nvs_full=rt is None,
        components=components,
        workloads=workloads,
        ranks=ranks,
        tiers=tuple(tiers),
        skew_curves=skew_curves,
        curve=curve,
        service_level=service_level,
        growth=growth,
        closed=closed,
        notes=c.notes,
    )


def _visit(service: float, u: float) -> tuple[float | None, float, float | None]:
    wait, response = _mm1(service, u)
    return response, service, wait


def _curve_point(m: _Model, x: float, at_max: bool) -> CurvePoint:
    rt = None if at_max else m.response(x)
    name, _, u = m.busiest(x)
    tiers = tuple(
        TierPoint(pool, t, share, 0.0, 0.0)
        for pool in m.pools
        if m.config.easy_tier.get(pool) == "auto"
        for t, share in m.tier_shares(pool, x).items()
    )
    return CurvePoint(x, rt, rt is None, name, min(u, 1.0), tiers)


def _growth_point(
    m: _Model, factor: float, planned: float, max_iops: float, c: Config
) -> GrowthPoint:
    x = planned * factor
    saturated = x >= max_iops
    rt = None if saturated else m.response(x)
    name, _, u = m.busiest(x)
    level = _limits(m, x, max_iops)
    broken = tuple(lim.label for lim in level.limits if not lim.met)
    if saturated:
        broken = (f"saturated: {m.busiest(max_iops)[0]}", *broken)
    return GrowthPoint(
        factor,
        x,
        rt,
        rt is None,
        name,
        min(u, 1.0),
        not broken,
        broken[0] if broken else None,
        broken=broken,
    )


# --------------------------------------------------------------------------- named cases

C3_GROUPS = (
    Group("oltp", "enterprise", "15k-146", "raid5-6+p+s", 8),
    Group("oltp", "enterprise", "15k-146", "raid5-7+p", 8),
)


def _c3(name: str, model: str, **load: object) -> Config:
    return Config(
        name=name,
        model=model,
        ports=4,
        da_pairs=2,
        groups=C3_GROUPS,
        loads=(
            Load(
                "brokerage",
                "oltp",
                read_hit_ratio=0.1,
                destage_ratio=1.0,
                capacity_gb=12_000.0,
                **load,  # type: ignore[arg-type]
            ),
        ),
        growth=(1.0, 1.25, 1.5, 2.0),
        target_ms=15.0,
    )


def open_comparison() -> ScenarioPrediction:
    """DS8800 against DS8700 at a planned 8,000 IOPS (the C3 configuration, open load)."""
    configs = [
        _c3("DS8800 C3 baseline (DB2 brokerage OLTP)", "ds8800-951", iops=8_000.0),
        _c3("DS8700 C3 baseline", "ds8700-941", iops=8_000.0),
    ]
    base, alt = (make_prediction(c) for c in configs)
    return ScenarioPrediction(
        "DS8800 C3 baseline (DB2 brokerage OLTP)",
        "DS8800 (2107-951) with 128 x 146 GB 15K drives in 16 RAID-5 ranks on 2 DA pairs, "
        "compared with a DS8700 (2107-941) of the same drives, cache and port count.",
        base,
        (alt,),
    )


def closed_comparison() -> ScenarioPrediction:
    """The C3 configuration at host queue depth 256."""
    configs = [
        _c3(n, model, population=256, population_kind="queue_depth")
        for n, model in (
            ("DS8800 C3 baseline (DB2 brokerage OLTP)", "ds8800-951"),
            ("DS8700 C3 baseline", "ds8700-941"),
        )
    ]
    configs = [Config(**{**c.__dict__, "growth": ()}) for c in configs]
    base, alt = (make_prediction(c) for c in configs)
    return ScenarioPrediction(base.name, "", base, (alt,))


TIERED = Config(
    name="Three tiers with Easy Tier",
    model="ds8800-951",
    ports=16,
    da_pairs=2,
    groups=(
        Group("mixed", "ssd", "ssd-300", "raid5-6+p+s", 1, da_pair=0),
        Group("mixed", "enterprise", "15k-300", "raid5-7+p", 1),
        Group("mixed", "ssd", "ssd-300", "raid5-6+p+s", 1, da_pair=0),
        Group("mixed", "enterprise", "15k-300", "raid5-7+p", 5),
        Group("mixed", "nearline", "nl-3tb", "raid6-6+p+q", 2),
    ),
    loads=(
        Load(
            "oltp",
            "mixed",
            iops=12_000.0,
            capacity_gb=30_000.0,
            skew="level 14 (high)",
            skew_k=6.0,
        ),
    ),
    easy_tier={"mixed": "auto"},
    ssd_share=0.62,
    ssd_limit_iops=14_000.0,
    growth=(1.0, 1.2, 1.4),
)


def tiered() -> ScenarioPrediction:
    """An Easy Tier pool of three tiers, SSD ranks on one server, with a tier sweep."""
    base = make_prediction(TIERED)
    sweep = []
    for added in range(4):
        if added == 3:
            sweep.append(
                TierSweepPoint(
                    added,
                    0.0,
                    "",
                    0.0,
                    None,
                    True,
                    error="DA pair 0 holds at most 8 ranks of this system",
                )
            )
            continue
        more = (
            Config(
                **{
                    **TIERED.__dict__,
                    "groups": (
                        *TIERED.groups,
                        Group("mixed", "ssd", "ssd-300", "raid5-6+p+s", added, 1),
                    ),
                    "ssd_share": min(0.9, TIERED.ssd_share * (1 + 0.25 * added)),
                    "ssd_limit_iops": TIERED.ssd_limit_iops * (1 + 0.5 * added),
                }
            )
            if added
            else TIERED
        )
        p = make_prediction(more)
        sweep.append(
            TierSweepPoint(
                added,
                p.max_iops,
                p.bottleneck,
                p.service_level.max_iops,
                p.response_time_ms,
                p.saturated,
                tier_small_io_share=next(t.small_io_share for t in p.tiers if t.tier == "ssd"),
            )
        )
    return ScenarioPrediction(
        TIERED.name,
        "SSD, 15K and nearline ranks in one pool, with both SSD ranks on server 0.",
        base,
        tier_sweep=tuple(sweep),
    )


HOSTILE = "<script>alert(1)</script> \"quoted\" & 'single' </title>"


def hostile() -> ScenarioPrediction:
    """Names full of markup, quotes and ampersands, in every place a name can appear."""
    pool = "pool <b>&amp;</b>"
    config = Config(
        **{
            **TIERED.__dict__,
            "name": HOSTILE,
            "groups": tuple(
                Group(pool, g.tier, g.drive, g.raid, g.count, g.da_pair) for g in TIERED.groups
            ),
            "loads": tuple(
                Load(**{**w.__dict__, "name": '<script>alert(3)</script>&"', "pool": pool})
                for w in TIERED.loads
            ),
            "easy_tier": {pool: "auto"},
            "notes": ("<script>alert(4)</script>",),
        }
    )
    return ScenarioPrediction(
        HOSTILE,
        "<img src=x onerror=alert(2)> & SSD, 15K and nearline.",
        make_prediction(config),
        calibration=_calibration(HOSTILE),
    )


def many_alternatives() -> ScenarioPrediction:
    """Four configurations with long names: legends must fit the chart's width."""
    names = (
        "DS8800 15K pool + 2 SSD ranks (OLTP, Easy Tier auto)",
        "without the SSD ranks",
        "SSD ranks, Easy Tier off",
        "skew intermediate (conservative sizing)",
    )
    groups = (
        Group("oltp", "enterprise", "15k-300", "raid5-7+p", 16),
        Group("oltp", "ssd", "ssd-300", "raid5-6+p+s", 2),
    )
    load = Load(
        "oltp",
        "oltp",
        iops=9_000.0,
        read_hit_ratio=0.4,
        capacity_gb=30_000.0,
        skew="level 14 (high)",
        skew_k=6.0,
    )
    configs = [
        Config(
            names[0],
            "ds8800-951",
            8,
            2,
            groups,
            (load,),
            {"oltp": "auto"},
            0.6,
            20_000.0,
            (1.0, 1.5, 2.0, 3.0),
        ),
        Config(
            names[1],
            "ds8800-951",
            8,
            2,
            groups[:1],
            (load,),
            {"oltp": "auto"},
            growth=(1.0, 1.5, 2.0, 3.0),
        ),
        Config(
            names[2],
            "ds8800-951",
            8,
            2,
            groups,
            (load,),
            {"oltp": "off"},
            growth=(1.0, 1.5, 2.0, 3.0),
        ),
        Config(
            names[3],
            "ds8800-951",
            8,
            2,
            groups,
            (Load(**{**load.__dict__, "skew": "level 7 (intermediate)", "skew_k": 3.0}),),
            {"oltp": "auto"},
            0.45,
            15_000.0,
            (1.0, 1.5, 2.0, 3.0),
        ),
    ]
    base, *alts = (make_prediction(c) for c in configs)
    return ScenarioPrediction(names[0], "The bundled example's shape, made up.", base, tuple(alts))


def _calibration(text: str = "") -> CalibrationResult:
    """A calibration that failed its quality gate: two intervals, two workloads, one
    parameter not identified, a catalog estimate fitted, a figure the model saturates at
    (`text` is put into every name, for the hostile case)."""
    intervals = (f"I/O peak 2026-11-02 14:30{text}", f"MB/s peak 2026-11-03 03:00{text}")
    scopes = (f"oltp{text}", f"batch{text}", f"pool0{text}")
    figures = []
    for k, interval in enumerate(intervals):
        for scope, figure, label, unit, measured, model in (
            (scopes[0], "response_ms", "response", "ms", 0.81, 0.83 + 0.1 * k),
            (scopes[1], "response_ms", "response", "ms", 0.5, None if k else 0.62),
            (scopes[2], "rank_utilization", "rank utilisation", "", 0.1, 0.097),
        ):
            error = None if model is None else model / measured - 1.0
            figures.append(
                CalibrationFigure(
                    interval, scope, figure, label, unit, measured, model, error, unit == "ms"
                )
            )
    return CalibrationResult(
        measured=f"week.csv{text}",
        intervals=intervals,
        evaluations=412,
        rms_error=0.31,
        threshold=0.1,
        passed=False,
        response_rms_error=0.37,
        worst_error=0.24,
        worst=f"{intervals[0]}, {scopes[1]}",
        findings=(
            CalibrationFinding(
                "fit",
                f"the model does not reproduce the measured response times{text}",
                f"add the sequential fractions of {scopes[1]}",
                True,
            ),
            CalibrationFinding(
                f"{scopes[1]}.skew.level",
                "not identified: the measured figures do not depend on it at all",
                "state it",
                False,
            ),
        ),
        fitted=(
            CalibratedParameter(
                f"{scopes[0]}.destage_ratio",
                "workload",
                0.55,
                0.5,
                0.6,
                True,
                "",
                (0.05, 1.0),
                1.0,
                0.7,
            ),
            CalibratedParameter(
                f"{scopes[1]}.skew.level",
                "workload",
                4.2,
                None,
                None,
                False,
                f"the data do not depend on it{text}",
                (1.0, 24.0),
                4.0,
                None,
            ),
            CalibratedParameter(
                "ds8800-951.device_adapter.per_op_us",
                "catalog",
                28.1,
                26.9,
                29.4,
                True,
                "",
                (10.0, 40.0),
                20.0,
                None,
            ),
        ),
        figures=tuple(figures),
    )


def calibrated() -> ScenarioPrediction:
    """The open comparison carrying a calibration that failed its gate."""
    return dataclasses.replace(open_comparison(), calibration=_calibration())


CASES: dict[str, Callable[[], ScenarioPrediction]] = {
    name: functools.cache(make)  # predictions are frozen: building each once is enough
    for name, make in (
        ("open-comparison", open_comparison),
        ("closed-comparison", closed_comparison),
        ("tiered", tiered),
        ("hostile", hostile),
        ("many-alternatives", many_alternatives),
        ("calibrated", calibrated),
    )
}
"""Every fixed case the gold files are made from, by name."""


def every_case() -> Sequence[tuple[str, ScenarioPrediction]]:
    return [(name, make()) for name, make in CASES.items()]
