"""Copy services through the model (theory tests with stated tolerances): Metro Mirror adds
to each replicated write exactly the round trips of light in the fibre, the links' response
and the secondary's write, and nothing to reads; the distance sweep is what a solve at each
distance gives; the links are stations whose utilisation is their writes x service;
FlashCopy adds exactly the stated back-end operations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from diskmodel.analyses import predict_configuration
from diskmodel.catalog import load_catalog
from diskmodel.components.copy_services_figures import copy_services_figures
from diskmodel.components.replication import link_service_s
from diskmodel.configuration import Configuration, resolve
from diskmodel.prediction import Prediction
from diskmodel.scenario import Scenario
from diskmodel.scenario.loading import load_scenario
from diskmodel.units import KIB, US

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
MM = SCENARIOS / "ds8800-metro-mirror-distance.yaml"
FC = SCENARIOS / "ds8800-flashcopy-backup.yaml"


def _with(path: Path, change: Any = None) -> Scenario:
    scenario = load_scenario(path)
    if change is None:
        return scenario
    data = scenario.model_dump(mode="python")
    change(data)
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def _predicted(scenario: Scenario, path: Path) -> tuple[Configuration, Prediction]:
    config = resolve(scenario, load_catalog(), path.parent)
    return config, predict_configuration(config)


def _without_copy_services(data: dict[str, Any]) -> None:
    data["copy_services"] = None


def _at_distance(km: float) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["copy_services"]["links"]["distance_km"] = km

    return change


def test_metro_mirror_adds_flight_links_and_secondary_to_writes_and_nothing_to_reads() -> None:
    _, mirrored = _predicted(_with(MM), MM)
    _, plain = _predicted(_with(MM, _without_copy_services), MM)
    (w,) = mirrored.workloads
    (base,) = plain.workloads
    r = w.replication
    assert r is not None
    assert r.mirror == "metro"
    # Reads never wait for the links or the secondary: the same to rounding.
    assert w.read_response_time_ms == pytest.approx(base.read_response_time_ms, rel=1e-12)
    # Light in the fibre: one round trip of 40 km at 5 us/km each way.
    f = copy_services_figures()
    assert r.propagation_ms == pytest.approx(
        f.round_trips_per_write * 2 * 40 * f.fibre_us_per_km * US * 1e3, rel=1e-12
    )
    assert r.added_ms == pytest.approx(
        r.propagation_ms + r.link_ms + r.secondary_write_ms, rel=1e-12
    )
    # What the mirror adds is all the write response gains (the primary's own stations
    # carry the same load with or without it).
    assert w.write_response_time_ms - base.write_response_time_ms == pytest.approx(
        r.added_ms, rel=1e-9
    )


@pytest.mark.parametrize("km", [0.0, 25.0, 100.0])
def test_the_distance_sweep_is_a_solve_at_that_distance(km: float) -> None:
    _, swept = _predicted(_with(MM), MM)
    (w,) = swept.workloads
    assert w.replication is not None
    point = next(p for p in w.replication.by_distance if p.distance_km == km)
    _, solved = _predicted(_with(MM, _at_distance(km)), MM)
    (there,) = solved.workloads
    assert point.write_response_ms == pytest.approx(there.write_response_time_ms, rel=1e-9)


def test_the_added_time_rises_by_the_round_trip_of_each_km() -> None:
    _, near = _predicted(_with(MM, _at_distance(0.0)), MM)
    _, far = _predicted(_with(MM, _at_distance(100.0)), MM)
    added_near = near.workloads[0].replication.added_ms  # type: ignore[union-attr]
    added_far = far.workloads[0].replication.added_ms  # type: ignore[union-attr]
    f = copy_services_figures()
    expected_ms = f.round_trips_per_write * 2 * 100 * f.fibre_us_per_km * 1e-3
    assert added_far - added_near == pytest.approx(expected_ms, rel=1e-9)
    # At 0 km a write waits for the links and the secondary alone.
    r = near.workloads[0].replication
    assert r is not None
    assert r.added_ms == pytest.approx(r.link_ms + r.secondary_write_ms, rel=1e-12)


def test_the_links_are_busy_their_writes_times_their_service() -> None:
    config, p = _predicted(_with(MM), MM)
    links = [c for c in p.components if c.name.startswith("replication link")]
    assert len(links) == 4
    writes = 9000 * 0.3
    service = link_service_s(8 * KIB, config.hardware.host_adapter.per_io_overhead_us, 760.0)
    for link in links:
        assert link.kind == "host_adapter"
        assert link.utilization == pytest.approx(writes / 4 * service, rel=1e-9)
        assert link.service_time_ms == pytest.approx(service * 1e3, rel=1e-9)


def test_flashcopy_adds_exactly_its_track_copies_to_the_back_end() -> None:
    config, copied = _predicted(_with(FC), FC)
    _, plain = _predicted(_with(FC, _without_copy_services), FC)
    cs = config.copy_services
    assert cs is not None
    (fc,) = cs.flashcopies
    host_writes = 9000 * 0.3
    copies = host_writes * fc.work.source_reads_per_write
    # Each copy: one track read on the source rank, and the track written on the target
    # rank with RAID-5's penalty (2 reads + 2 writes).
    expected = copies * (1 + 2 + 2)
    added = sum(r.backend_iops for r in copied.ranks) - sum(r.backend_iops for r in plain.ranks)
    assert added == pytest.approx(expected, rel=1e-9)
    # The host's reads wait longer for the busier drives; nothing else changes its writes.
    assert copied.workloads[0].read_response_time_ms > plain.workloads[0].read_response_time_ms


def test_a_background_copy_reads_and_writes_the_source_over_its_hours() -> None:
    def copy(data: dict[str, Any]) -> None:
        data["copy_services"]["flashcopy"] = [
            {"workload": "oltp", "mode": "copy", "window_hours": 8, "copy_hours": 24}
        ]

    config, copied = _predicted(_with(FC, copy), FC)
    _, nocopy = _predicted(_with(FC), FC)
    cs = config.copy_services
    assert cs is not None
    (fc,) = cs.flashcopies
    per_s = 30000e9 / (24 * 3600)
    assert fc.work.background_bytes_per_s == pytest.approx(per_s, rel=1e-12)
    track = 64 * KIB
    # Read in tracks; written in full stripes of RAID-5 7+P: 8/7 of the bytes, in tracks.
    expected = per_s / track * (1 + 8 / 7)
    added = sum(r.backend_iops for r in copied.ranks) - sum(r.backend_iops for r in nocopy.ranks)
    assert added == pytest.approx(expected, rel=1e-9)


ZOS = SCENARIOS / "ds8800-zos-oltp-hyperpav.yaml"


def _zos_mirrored(data: dict[str, Any]) -> None:
    data["analyses"]["compare"] = []
    data["copy_services"] = {
        "secondary": {
            "system": {
                "model": "ds8800-951",
                "processor_ways": 4,
                "cache_gb": 256,
                "host_ports": 16,
                "da_pairs": 4,
            },
            "pools": [
                {"name": "ckd", "ranks": [{"drive": "15k-300", "raid": "raid5-7+p", "count": 32}]}
            ],
        },
        "links": {"count": 4, "speed_gbps": 8, "distance_km": 30},
        "metro_mirror": {"workloads": ["db2-oltp"]},
    }


def test_on_z_os_metro_mirror_is_disconnect_time() -> None:
    """IBM's RMF shows a synchronous mirror's time as DISC (the channel is free while the
    write goes to the secondary): the whole added time moves DISC, and the four components
    still add up to the response time."""
    _, mirrored = _predicted(_with(ZOS, _zos_mirrored), ZOS)

    def plain_change(data: dict[str, Any]) -> None:
        data["analyses"]["compare"] = []

    _, plain = _predicted(_with(ZOS, plain_change), ZOS)
    w = next(w for w in mirrored.workloads if w.name == "db2-oltp")
    base = next(w for w in plain.workloads if w.name == "db2-oltp")
    assert w.rmf is not None
    assert base.rmf is not None
    assert w.replication is not None
    assert w.replication.added_ms is not None
    writes = sum(t.fraction for t in w.io_types if "write" in t.io_type)
    # Only the replicated writes move, and only their DISC (the links are not the host's ports).
    assert w.rmf.disc_ms - base.rmf.disc_ms == pytest.approx(
        writes * w.replication.added_ms, rel=1e-6
    )
    assert w.rmf.pend_ms == pytest.approx(base.rmf.pend_ms, rel=1e-6)
    assert w.rmf.conn_ms == pytest.approx(base.rmf.conn_ms, rel=1e-6)
    total = w.rmf.iosq_ms + w.rmf.pend_ms + w.rmf.disc_ms + w.rmf.conn_ms
    assert total == pytest.approx(w.response_time_ms, rel=1e-9)
    # The batch workload is not mirrored: its RMF components do not move.
    other = next(x for x in mirrored.workloads if x.name == "batch-read")
    assert other.replication is None
