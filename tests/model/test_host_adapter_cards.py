"""Host adapter cards (issue 11 item 5): the ports of one card share its processor and its PCI
Express link. The card's command time is part of the fixed front-end time; its link transfer is
pipelined with the port's, so it loads the card (and other I/Os wait behind it) without adding
to the I/O's own time."""

from __future__ import annotations

import copy

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import host_adapter
from diskmodel.configuration import resolve
from diskmodel.model import Solver

from ..support.builders import BASE, predict_one, scenario, with_data

CATALOG = load_catalog()
KIB = 1024


def _hits(size_kib: float, **changes: object) -> dict[str, object]:
    """Reads served from cache only: the front end is all that works."""
    return {
        "workloads.0.read_fraction": 1.0,
        "workloads.0.read_hit_ratio": 1.0,
        "workloads.0.read_size_kib": size_kib,
        **changes,
    }


def test_ports_fill_cards_in_order() -> None:
    for ports, cards in [(1, 1), (4, 1), (6, 2), (8, 2), (16, 4)]:
        config = resolve(scenario(**{"system.host_ports": ports}), CATALOG)
        names = [s.name for s in Solver(config).planned_point().network.stations]
        assert [n for n in names if n.startswith("host adapter card")] == [
            f"host adapter card {c}" for c in range(cards)
        ]


def test_a_card_carries_the_work_of_its_ports() -> None:
    """6 ports: card 0 holds ports 0-3, card 1 ports 4-5, so card 0 is twice as busy; each is
    as busy as its ports' I/O times the card's whole service (command + link transfer)."""
    s = scenario(**_hits(64, **{"system.host_ports": 6, "workloads.0.iops": 6000}))
    p = predict_one(s)
    busy = {c.name: c.utilization for c in p.components}
    adapter = CATALOG.systems["ds8800-951"].host_adapter()
    per_io = host_adapter.card_service(adapter, 64 * KIB).mean_s
    assert busy["host adapter card 0"] == pytest.approx(6000 * 4 / 6 * per_io, rel=1e-9)
    assert busy["host adapter card 1"] == pytest.approx(6000 * 2 / 6 * per_io, rel=1e-9)


@pytest.mark.parametrize("system", ["ds8800-951", "ds8700-941"])
@pytest.mark.parametrize("size_kib", [4, 64, 256, 1024])
def test_the_cards_link_transfer_adds_nothing_at_light_load(system: str, size_kib: int) -> None:
    """At light load a read hit takes the fixed front-end time and its transfer over the port,
    whatever the size: the card's transfer overlaps the port's (it is not counted twice)."""
    s = scenario(**_hits(size_kib, **{"system.model": system, "workloads.0.iops": 1}))
    config = resolve(s, CATALOG)
    adapter = config.hardware.host_adapter
    fixed = config.hardware.system.front_end_latency_us * 1e-6
    port = size_kib * KIB / (adapter.port_bandwidth_mb_s * 1e6)
    response = Solver(config).planned_point().response_s
    assert response == pytest.approx(fixed + port, rel=1e-3)


def test_large_transfers_saturate_the_card_link_before_the_ports() -> None:
    """Four 8 Gb/s ports (4 x 760 MB/s) share one card's 2,000 MB/s link: 256 KiB read hits on
    8 ports (2 cards) top out at 2 x 2,000 MB/s, at a card."""
    s = scenario(**_hits(256, **{"system.host_ports": 8, "system.da_pairs": 4}))
    p = predict_one(s)
    adapter = CATALOG.systems["ds8800-951"].host_adapter()
    assert 2 * adapter.card_bandwidth_mb_s < 8 * adapter.port_bandwidth_mb_s
    card_s = host_adapter.card_service(adapter, 256 * KIB).mean_s  # half the I/O on each card
    assert p.max_iops == pytest.approx(2 / card_s, rel=1e-3)
    assert p.bottleneck.startswith("host adapter card")


def test_a_closed_system_held_by_a_card_is_not_called_nvs_full() -> None:
    """The card's link work is asynchronous (like a destage) in the closed solution too: many
    hosts' 256 KiB read hits reach the cards' link limit, the same as the open maximum, and
    no NVS is involved (no writes)."""
    data = copy.deepcopy(BASE)
    data["system"].update(host_ports=8, da_pairs=4)
    workload = data["workloads"][0]
    del workload["iops"]
    workload.update(queue_depth=512, read_fraction=1.0, read_hit_ratio=1.0, read_size_kib=256)
    p = predict_one(with_data(data))
    assert p.closed is not None
    assert not p.closed.destage_limited
    assert p.closed.iops <= p.max_iops * (1 + 1e-4)
    assert p.closed.iops == pytest.approx(p.max_iops, rel=0.02)
