"""Fixed, made-up predictions for the report tests: the report's input, not a model.

The numbers come from a few stated per-operation costs and M/M/1 at each station, so that they
are plausible, deterministic and independent of the storage model (whose numbers change as it
is calibrated: a gold file of the page must not change with them). Component names follow the
model's ("host port 0", "server 0 (4-way)", "DA pair 1", "rank 3 (pool, drive raid, DA 1)").
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from diskmodel.catalog import load_catalog
from diskmodel.prediction import (
    ClosedPoint,
    ClosedSystemResult,
    ComponentResult,
    CurvePoint,
    GrowthPoint,
    IoTypeResult,
    Prediction,
    RankLoad,
    ScenarioPrediction,
    TierLoad,
    WorkloadResult,
)
from diskmodel.scenario import Scenario, expand_ranks, validate_scenario
from diskmodel.yamlio import parse_yaml

HERE = Path(__file__).resolve().parent
GOLD = HERE / "gold"

# Per-operation service times (ms) of the made-up stations; the DS8700's adapters are slower.
PORT_MS = {"ds8800-951": 0.025, "ds8700-941": 0.045}
SERVER_MS = {"ds8800-951": 0.030, "ds8700-941": 0.034}
DA_MS = {"ds8800-951": 0.020, "ds8700-941": 0.100}
HDD_MS = 5.6
SSD_MS = 0.25


def _mm1(service_ms: float, utilization: float) -> tuple[float | None, float | None]:
    """(wait, response) of M/M/1, None at or past saturation."""
    if utilization >= 1.0:
        return None, None
    wait = service_ms * utilization / (1.0 - utilization)
    return wait, wait + service_ms


def make_prediction(
    name: str,
    scenario: Scenario,
    planned_iops: float,
    *,
    ssd_share: float = 0.0,
    closed_population: int | None = None,
    notes: tuple[str, ...] = (),
) -> Prediction:
    """One configuration's made-up prediction at `planned_iops` total host I/O per second.

    Each host I/O visits one host port, one server, and (if it misses) one DA pair and one
    rank; back-end operations are read misses plus 4 per destaged write (RAID-5). With
    `ssd_share`, that share of the back-end I/O goes to SSD ranks.
    """
    catalog = load_catalog()
    system = scenario.system.model
    w = scenario.workloads[0]
    misses = w.read_fraction * (1 - w.read_hit_ratio)
    backend_per_io = misses + 4 * (1 - w.read_fraction) * w.destage_ratio
    ranks = expand_ranks(scenario)
    ssd = [r for r in ranks if catalog.drives[r.drive].kind == "ssd"]
    hdd = [r for r in ranks if catalog.drives[r.drive].kind != "ssd"]

    def per_rank_rate(rank_is_ssd: bool, x: float) -> float:
        if not ssd:
            return x * backend_per_io / len(hdd)
        group = ssd if rank_is_ssd else hdd
        share = ssd_share if rank_is_ssd else 1 - ssd_share
        return x * backend_per_io * share / len(group)

    def stations(x: float) -> list[tuple[str, str, float, float]]:
        out = [
            (f"host port {i}", "host_adapter", PORT_MS[system], x / scenario.system.host_ports)
            for i in range(scenario.system.host_ports)
        ]
        out += [
            (
                f"server {s} ({scenario.system.processor_ways}-way)",
                "processor",
                SERVER_MS[system] / scenario.system.processor_ways,
                x / 2,
            )
            for s in range(2)
        ]
        out += [
            (
                f"DA pair {d}",
                "device_adapter",
                DA_MS[system],
                x * backend_per_io * sum(1 for r in ranks if r.da_pair == d) / len(ranks),
            )
            for d in range(scenario.system.da_pairs)
        ]
        for r in ranks:
            is_ssd = r in ssd
            out.append(
                (
                    f"rank {r.index} ({r.pool}, {r.drive} {r.raid}, DA {r.da_pair})",
                    "rank",
                    SSD_MS if is_ssd else HDD_MS,
                    per_rank_rate(is_ssd, x) / 8,  # spread over the 8 drives of the array site
                )
            )
        return out

    # Each station's utilisation per host I/O per second; the largest one saturates first.
    per_iops = {name: (kind, rate * service / 1000) for name, kind, service, rate in stations(1.0)}
    bottleneck = max(per_iops, key=lambda n: per_iops[n][1])
    bottleneck_kind, unit = per_iops[bottleneck]
    max_iops = 1.0 / unit

    closed = None
    if closed_population is not None:
        points = tuple(
            ClosedPoint(
                n,
                min(n * 1000 / 6.0, max_iops * n / (n + 24)),
                n / min(n * 1000 / 6.0, max_iops * n / (n + 24)) * 1000,
            )
            for n in sorted(
                {*range(1, closed_population, max(1, closed_population // 32)), closed_population}
            )
        )
        last = points[-1]
        closed = ClosedSystemResult(
            last.population, 0.0, last.iops, last.response_time_ms, False, points
        )
        planned_iops = closed.iops

    def response(x: float) -> float | None:
        total = 0.0
        for _, kind, service, rate in stations(x):
            _, r = _mm1(service, rate * service / 1000)
            if r is None:
                return None
            weight = {"host_adapter": 1.0, "processor": 1.0}.get(kind, backend_per_io / 2)
            count = {"host_adapter": scenario.system.host_ports, "processor": 2}.get(
                kind, scenario.system.da_pairs if kind == "device_adapter" else len(ranks)
            )
            total += weight * r / count
        return total

    components = []
    for station, kind, service, rate in stations(planned_iops):
        u = min(1.0, rate * service / 1000)
        wait, resp = _mm1(service, u)
        components.append(ComponentResult(station, kind, u, resp, service, wait, u >= 1.0))
    rt = response(planned_iops)
    breakdown: dict[str, float | None] = {
        "host_adapter": PORT_MS[system] * 1.1,
        "processor": SERVER_MS[system],
        "device_adapter": DA_MS[system] * backend_per_io,
        "rank": None if rt is None else max(0.0, rt - 0.1),
    }
    io_types = (
        IoTypeResult(
            "read hit",
            w.read_fraction * w.read_hit_ratio,
            0.09,
            {"host_adapter": 0.03, "processor": 0.06},
        ),
        IoTypeResult(
            "read miss",
            misses,
            None if rt is None else rt * 2.2,
            {
                "host_adapter": 0.03,
                "processor": 0.07,
                "device_adapter": 0.05,
                "rank": None if rt is None else rt * 2.2 - 0.15,
            },
        ),
        IoTypeResult("write", 1 - w.read_fraction, 0.12, {"host_adapter": 0.04, "processor": 0.08}),
    )
    workloads = (
        WorkloadResult(
            w.name,
            w.pool,
            planned_iops,
            rt,
            None if rt is None else rt * 1.3,
            0.12,
            breakdown,
            io_types,
            w.read_hit_ratio,
        ),
    )
    rank_loads = tuple(
        RankLoad(
            c.name,
            r.pool,
            catalog.drives[r.drive].tier,
            r.drive,
            r.raid,
            r.da_pair,
            r.server,
            per_rank_rate(r in ssd, planned_iops),
            c.utilization,
        )
        for r, c in zip(ranks, [c for c in components if c.kind == "rank"], strict=True)
    )
    tiers = _tiers(scenario, ranks, ssd_share, planned_iops * backend_per_io)
    curve = tuple(
        CurvePoint(x, response(x), response(x) is None)
        for x in (max_iops * k / 40 for k in range(1, 41))
    )
    return Prediction(
        name=name,
        system=system,
        max_iops=max_iops,
        bottleneck=bottleneck,
        bottleneck_kind=bottleneck_kind,
        destage_limited=bottleneck_kind in {"rank", "device_adapter"},
        planned_iops=planned_iops,
        saturated=rt is None,
        response_time_ms=rt,
        nvs_full=rt is None,
        components=tuple(components),
        workloads=workloads,
        ranks=rank_loads,
        tiers=tiers,
        curve=curve,
        closed=closed,
        notes=notes,
    )


def _tiers(
    scenario: Scenario, ranks: list, ssd_share: float, backend_iops: float
) -> tuple[TierLoad, ...]:
    catalog = load_catalog()
    capacity: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for r in ranks:
        drive = catalog.drives[r.drive]
        key = (r.pool, drive.tier)
        capacity[key] += catalog.raid_formats[r.raid].data_drives * drive.capacity_gb
        count[key] += 1
    data = sum(w.capacity_gb for w in scenario.workloads)
    out = []
    tiers = sorted(capacity, key=lambda k: ("ssd", "enterprise", "nearline").index(k[1]))
    for pool, tier in tiers:
        if len(tiers) > 1:
            used = capacity[(pool, tier)] if tier == "ssd" else data - capacity[(pool, "ssd")]
            share = ssd_share if tier == "ssd" else 1 - ssd_share
        else:
            used, share = data, 1.0
        out.append(
            TierLoad(
                pool,
                tier,
                count[(pool, tier)],
                capacity[(pool, tier)],
                used,
                share,
                backend_iops * share,
            )
        )
    return tuple(out)


# --------------------------------------------------------------------------- named cases


C3_YAML = """\
schema_version: 1
name: DS8800 C3 baseline (DB2 brokerage OLTP)
description: >
  DS8800 (2107-951) with 128 x 146 GB 15K drives in 16 RAID-5 ranks on 2 DA pairs, compared
  with a DS8700 (2107-941) of the same drives, cache and port count at 4 Gb/s.
system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 4, da_pairs: 2}
pools:
  - name: oltp
    easy_tier: "off"
    ranks:
      - {drive: 15k-146, raid: raid5-6+p+s, count: 8}
      - {drive: 15k-146, raid: raid5-7+p, count: 8}
workloads:
  - {name: brokerage, pool: oltp, LOAD, read_fraction: 0.7, read_hit_ratio: 0.1,
     destage_ratio: 1.0, read_size_kib: 4, write_size_kib: 4, capacity_gb: 12000}
analyses:
  compare:
    - name: DS8700 C3 baseline
      set: {system.model: ds8700-941}
"""
"""The C3 configuration (DOMAIN.md), as scenarios/ds8800-c3-baseline.yaml had it; LOAD is
replaced by an open rate or a queue depth."""


def c3(load: str) -> Scenario:
    return scenario_from_text(C3_YAML.replace("LOAD", load), "c3.yaml")


def scenario_from_text(text: str, name: str) -> Scenario:
    """Validate a scenario written inline."""
    return validate_scenario(parse_yaml(text, name))


def open_comparison() -> tuple[ScenarioPrediction, list[tuple[str, Scenario]]]:
    """DS8800 against DS8700 at a planned 12,000 IOPS (the C3 configuration, open load)."""
    base = c3("iops: 8000")
    configs = base.alternatives()
    predictions = [make_prediction(n, s, 8_000.0) for n, s in configs]
    growth = tuple(
        GrowthPoint(f, 8_000.0 * f, predictions[0].response_time_ms, False, 0.5 * f)
        for f in (1.0, 1.25, 1.5)
    )
    return (
        ScenarioPrediction(base.name, predictions[0], tuple(predictions[1:]), growth),
        configs,
    )


def closed_comparison() -> tuple[ScenarioPrediction, list[tuple[str, Scenario]]]:
    """The shipped C3 scenario as given: host queue depth 256."""
    base = c3("queue_depth: 256")
    configs = base.alternatives()
    predictions = [
        make_prediction(n, s, 0.0, closed_population=256) for i, (n, s) in enumerate(configs)
    ]
    return ScenarioPrediction(base.name, predictions[0], tuple(predictions[1:])), configs


TIERED_YAML = """\
schema_version: 1
name: Three tiers with Easy Tier
description: SSD, 15K and nearline ranks in one pool, with SSD ranks all on server 0.
system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 8, da_pairs: 2}
pools:
  - name: mixed
    easy_tier: auto
    ranks:
      - {drive: ssd-300, raid: raid5-6+p+s, count: 1, da_pair: 0}
      - {drive: 15k-300, raid: raid5-7+p, count: 1}
      - {drive: ssd-300, raid: raid5-6+p+s, count: 1, da_pair: 1}
      - {drive: 15k-300, raid: raid5-7+p, count: 5}
      - {drive: nl-3tb, raid: raid6-6+p+q, count: 2}
workloads:
  - {name: oltp, pool: mixed, iops: 20000, read_fraction: 0.7, read_hit_ratio: 0.5,
     destage_ratio: 0.6, capacity_gb: 30000, skew: {level: high}}
"""


def tiered() -> tuple[ScenarioPrediction, list[tuple[str, Scenario]]]:
    """An Easy Tier pool of three tiers, SSD ranks unbalanced across the servers."""
    scenario = scenario_from_text(TIERED_YAML, "tiered.yaml")
    prediction = make_prediction(scenario.name, scenario, 20_000.0, ssd_share=0.62)
    return ScenarioPrediction(scenario.name, prediction), [(scenario.name, scenario)]


HOSTILE = "<script>alert(1)</script> \"quoted\" & 'single' </title>"


def hostile() -> tuple[ScenarioPrediction, list[tuple[str, Scenario]]]:
    """Names full of markup, quotes and ampersands, in every place a name can appear."""
    text = (
        TIERED_YAML.replace(
            "name: Three tiers with Easy Tier", f"name: '{HOSTILE.replace(chr(39), chr(39) * 2)}'"
        )
        .replace("description: SSD,", "description: '<img src=x onerror=alert(2)> & SSD,")
        .replace("on server 0.", "on server 0.'")
        .replace("name: mixed", "name: 'pool <b>&amp;</b>'")
        .replace("pool: mixed", "pool: 'pool <b>&amp;</b>'")
        .replace("name: oltp", "name: '<script>alert(3)</script>&\"'")
    )
    scenario = scenario_from_text(text, "hostile.yaml")
    prediction = make_prediction(
        scenario.name, scenario, 20_000.0, ssd_share=0.62, notes=("<script>alert(4)</script>",)
    )
    return ScenarioPrediction(scenario.name, prediction), [(scenario.name, scenario)]


CASES = {
    "open-comparison": open_comparison,
    "closed-comparison": closed_comparison,
    "tiered": tiered,
    "hostile": hostile,
}
"""Every fixed case the gold files are made from, by name."""
