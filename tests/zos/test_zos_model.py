"""The z/OS model: IOSQ from the device's M/M/c queue (theory, to 1e-9), RMF's components adding
up to the response time, light-load PEND + CONN against DOMAIN.md C6, the channels as stations
with their own ceiling, and what a z/OS scenario refuses."""

from __future__ import annotations

import itertools
import math

import pytest
from pydantic import ValidationError

from diskmodel.units import MB, US

from .zos_builders import planned, results, zos_config


def erlang_c_wait(lam: float, s: float, c: int) -> float:
    """Textbook M/M/c mean wait (Kleinrock 1975, §3.5), written out independently of the
    queueing layer: C(c, a) = (a^c / c! * c / (c - a)) / (sum_{k<c} a^k / k! + that)."""
    a = lam * s
    top = a**c / math.factorial(c) * c / (c - a)
    prob = top / (sum(a**k / math.factorial(k) for k in range(c)) + top)
    return prob * s / (c - a)


def _one(**changes: object) -> tuple[float, float, float]:
    """(IOSQ, time below z/OS, response), seconds, of the single z/OS workload."""
    (w,) = results(zos_config(**changes))
    assert w.rmf is not None
    assert w.response_time_ms is not None
    iosq = (w.rmf.iosq_ms or 0.0) * 1e-3
    return iosq, w.response_time_ms * 1e-3 - iosq, w.response_time_ms * 1e-3


@pytest.mark.parametrize("aliases", [0, 8, 16, 24])
def test_static_pav_iosq_is_the_erlang_c_wait_of_1_plus_aliases_servers(aliases: int) -> None:
    # 8 volumes, 4,000 I/O/s: 500 a volume; static PAV deals the aliases evenly (1, 2, 3 each).
    iosq, below, _ = _one(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": aliases})
    c = 1 + aliases // 8
    assert iosq == pytest.approx(erlang_c_wait(4000 / 8, below, c), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("aliases", [0, 4, 16])
def test_hyperpav_iosq_is_the_erlang_c_wait_of_the_lcu_pool(aliases: int) -> None:
    iosq, below, _ = _one(**{"system.lcus.0.pav": "hyperpav", "system.lcus.0.aliases": aliases})
    assert iosq == pytest.approx(erlang_c_wait(4000, below, 8 + aliases), rel=1e-9, abs=1e-15)


def test_no_pav_is_an_m_m_1_queue_per_volume() -> None:
    iosq, below, _ = _one()
    rho = 500 * below
    assert iosq == pytest.approx(rho * below / (1 - rho), rel=1e-9)


def test_adding_aliases_lowers_iosq_and_nothing_else() -> None:
    seen = []
    for aliases in (0, 8, 16, 32, 64):
        (w,) = results(
            zos_config(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": aliases})
        )
        assert w.rmf is not None
        seen.append((w.rmf.iosq_ms, w.rmf.pend_ms, w.rmf.disc_ms, w.rmf.conn_ms))
    iosq = [s[0] for s in seen]
    assert all(a > b for a, b in itertools.pairwise(iosq))
    assert len({s[1:] for s in seen}) == 1  # PEND, DISC and CONN do not depend on the aliases


def test_a_static_remainder_gives_some_volumes_one_alias_more() -> None:
    # 4 aliases over 8 volumes: half the volumes run 2 I/Os at once, half 1.
    iosq, below, _ = _one(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": 4})
    expected = 0.5 * erlang_c_wait(500, below, 1) + 0.5 * erlang_c_wait(500, below, 2)
    assert iosq == pytest.approx(expected, rel=1e-9)


def test_hyperpav_pools_so_it_queues_less_than_static_with_the_same_aliases() -> None:
    static, _, _ = _one(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": 8})
    pooled, _, _ = _one(**{"system.lcus.0.pav": "hyperpav", "system.lcus.0.aliases": 8})
    assert pooled < static


@pytest.mark.parametrize("pav", ["none", "static", "hyperpav"])
def test_rmf_components_add_up_to_the_response_time(pav: str) -> None:
    config = zos_config(**{"system.lcus.0.pav": pav, "system.lcus.0.aliases": 8})
    for w in results(config):
        assert w.rmf is not None
        assert w.response_time_ms is not None
        parts = [w.rmf.iosq_ms, w.rmf.pend_ms, w.rmf.disc_ms, w.rmf.conn_ms]
        assert all(p is not None and p >= 0 for p in parts)
        assert sum(p or 0.0 for p in parts) == pytest.approx(w.response_time_ms, rel=1e-12)
        for t in w.io_types:  # each class's components add up too (channel included)
            assert t.response_time_ms is not None
            assert "channel" in t.breakdown_ms


def _write_only(pages: int) -> tuple[float, float]:
    """(PEND + CONN, DISC) ms of one z/OS write of `pages` 4 KiB pages at light load."""
    (w,) = results(
        zos_config(
            **{
                "workloads.0.iops": 1.0,
                "workloads.0.read_fraction": 0.0,
                "workloads.0.write_size_kib": 4.0 * pages,
            }
        )
    )
    assert w.rmf is not None
    return (w.rmf.pend_ms or 0.0) + (w.rmf.conn_ms or 0.0), w.rmf.disc_ms or 0.0


def test_light_load_pend_and_conn_agree_with_c6_one_page() -> None:
    # DOMAIN.md C6 (DS8800, 8 Gb/s FICON): one 4 KB log page at least about 170 us.
    front, disc = _write_only(1)
    assert disc == pytest.approx(0.0, abs=1e-6)  # a fast write: nothing disconnected
    assert front == pytest.approx(0.170, rel=0.10)


def test_light_load_pend_and_conn_agree_with_c6_128_pages() -> None:
    # C6: 128 pages about 2.5 ms.
    front, _ = _write_only(128)
    assert front == pytest.approx(2.5, rel=0.10)


def test_light_load_time_does_not_depend_on_the_channel_generation_or_mode() -> None:
    # The channel's work is part of the measured fixed front-end time (C6), not added to it.
    base = _write_only(1)[0]
    (w,) = results(
        zos_config(
            **{
                "workloads.0.iops": 1.0,
                "workloads.0.read_fraction": 0.0,
                "system.ficon.zhpf": False,
                "system.ficon.channel": "ficon-express-8",
            }
        )
    )
    assert w.rmf is not None
    assert (w.rmf.pend_ms or 0.0) + (w.rmf.conn_ms or 0.0) == pytest.approx(base, rel=1e-3)


def test_channel_utilisation_is_rate_times_work_per_io_over_channels() -> None:
    config = zos_config(**{"workloads.0.read_fraction": 1.0, "workloads.0.read_hit_ratio": 1.0})
    point = planned(config)
    net = point.network
    ficon = config.hardware.ficon
    assert ficon is not None
    busy = 4000 / 4 * (ficon.per_io_s + 4096 / (ficon.channel.bandwidth_mb_s * MB))
    channels = net.stations_of_kind("channel")
    assert len(channels) == 4
    for k in channels:
        assert point.utilization[k] == pytest.approx(busy, rel=1e-9)
    assert ficon.per_io_s == pytest.approx(10.87 * US)


def test_command_mode_loads_the_channels_more_and_raises_pend() -> None:
    zhpf = planned(zos_config())
    command = planned(zos_config(**{"system.ficon.zhpf": False}))
    k = zhpf.network.stations_of_kind("channel")[0]
    # 70% reads at 4 KiB: 1,000 I/O/s a channel, 50 us of command mode work against 10.87.
    transfer = 4096 / (800 * MB)
    assert command.utilization[k] == pytest.approx(1000 * (50 * US + transfer), rel=1e-9)
    assert zhpf.utilization[k] == pytest.approx(1000 * (10.87 * US + transfer), rel=1e-9)
    (a,), (b,) = results(zos_config()), results(zos_config(**{"system.ficon.zhpf": False}))
    assert a.rmf is not None
    assert b.rmf is not None
    assert (b.rmf.pend_ms or 0) > (a.rmf.pend_ms or 0)


def test_the_channels_have_their_own_ceiling_in_the_service_level() -> None:
    config = zos_config(**{"service_level": {"utilization": {"channel": 0.4}}})
    assert config.service_level.utilization["channel"] == 0.4
    assert config.inputs.service_level.utilization["channel"] == 0.4


def test_an_open_systems_workload_beside_keeps_its_breakdown() -> None:
    from .zos_builders import zos_data

    data = zos_data(**{"system.ficon.host_ports": 4})
    data["workloads"].append(
        {
            "name": "aix",
            "pool": "p",
            "iops": 2000,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.5,
            "capacity_gb": 500,
        }
    )
    from diskmodel.catalog import load_catalog
    from diskmodel.configuration import resolve
    from diskmodel.scenario import Scenario

    catalog = load_catalog()
    config = resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
    db2, aix = results(config)
    assert db2.rmf is not None
    assert aix.rmf is None
    assert list(aix.breakdown_ms) == ["host_adapter", "processor", "device_adapter", "rank"]
    # The z/OS I/O uses the FICON ports (0-3), the open-systems I/O the others (4-7).
    point = planned(config)
    ports = [k for k, s in enumerate(point.network.stations) if s.name.startswith("host port")]
    assert all(point.network.arrival[0, k] > 0 for k in ports[:4])
    assert all(point.network.arrival[0, k] == 0 for k in ports[4:])
    assert all(point.network.arrival[1, k] == 0 for k in ports[:4])
    assert all(point.network.arrival[1, k] > 0 for k in ports[4:])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"workloads.0.zos.lcus": ["b"]}, r"workloads\[0\]\.zos\.lcus\[0\]: unknown LCU 'b'"),
        ({"workloads.0.capacity_gb": 5000}, r"workloads\[0\]\.capacity_gb: .* volumes that hold"),
        # 8 3390-54 volumes hold 445 GB raw, 386 GB in 4 KiB records, 440 GB in half tracks.
        ({"workloads.0.capacity_gb": 400}, "in records of 4,096 bytes"),
        ({"system.lcus.0.aliases": 250}, r"system\.lcus\[0\]: .* an LCU has 256"),
    ],
)
def test_what_spans_the_system_and_the_workloads_is_one_clear_message(
    changes: dict[str, object], message: str
) -> None:
    # The scenario's own rules (scenario.zos_rules), so `check` finds them as `run` does.
    from .zos_builders import zos_scenario

    with pytest.raises(ValidationError, match=message):
        zos_scenario(**changes)


def test_a_closed_workload_beside_z_os_ones_is_refused() -> None:
    from .zos_builders import zos_data

    data = zos_data(**{"system.ficon.host_ports": 4})
    data["workloads"].append(
        {
            "name": "aix",
            "pool": "p",
            "queue_depth": 16,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.5,
            "capacity_gb": 500,
        }
    )
    from diskmodel.catalog import load_catalog
    from diskmodel.scenario import Scenario

    catalog = load_catalog()
    with pytest.raises(ValidationError, match=r"workloads\[1\]: .*open workloads only"):
        Scenario.model_validate(data, context={"catalog": catalog})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"system.ficon.channels": 9}, "less than or equal to 8"),
        ({"system.lcus.0.pav": "dynamic"}, "hyperpav"),
        ({"workloads.0.zos.volume_model": "3390-99"}, "unknown volume model"),
        ({"system.ficon.channel": "escon"}, "unknown FICON channel"),
        ({"workloads.0.iops": None, "workloads.0.queue_depth": 8}, "is given by its I/O rate"),
    ],
)
def test_bad_z_os_input_is_refused_by_the_scenario(
    changes: dict[str, object], message: str
) -> None:
    from .zos_builders import zos_scenario

    with pytest.raises(ValidationError, match=message):
        zos_scenario(**changes)


@pytest.mark.parametrize("aliases", [0, 8, 16, 32])
def test_iosq_is_exactly_the_queueing_layers_m_m_c_station(aliases: int) -> None:
    # The same station the queueing layer solves elsewhere (`queueing.station.mmc`).
    from diskmodel.queueing.station import mmc

    iosq, below, _ = _one(**{"system.lcus.0.pav": "static", "system.lcus.0.aliases": aliases})
    station = mmc(500.0, below, 1 + aliases // 8)
    # To rounding: the time below z/OS is read back as the response less IOSQ, in ms.
    assert iosq == pytest.approx(float(station.wait_time), rel=1e-9)


def test_a_hyperpav_pool_shared_by_two_workloads_queues_them_alike() -> None:
    from diskmodel.catalog import load_catalog
    from diskmodel.configuration import resolve
    from diskmodel.queueing.station import mmc
    from diskmodel.scenario import Scenario

    from .zos_builders import zos_data

    data = zos_data(**{"system.lcus.0.pav": "hyperpav", "system.lcus.0.aliases": 2})
    second = dict(data["workloads"][0], name="ims", iops=2000, read_hit_ratio=0.95)
    second["zos"] = {"lcus": ["a"], "volumes": 4, "volume_model": "3390-54"}
    second["capacity_gb"] = 150
    data["workloads"].append(second)
    catalog = load_catalog()
    config = resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
    db2, ims = results(config)
    assert db2.rmf is not None
    assert ims.rmf is not None
    assert db2.rmf.iosq_ms == pytest.approx(ims.rmf.iosq_ms, rel=1e-12)
    # One pool: 8 + 4 bases and 2 aliases, fed both workloads at their mean time below z/OS.
    below = {w.name: (w.response_time_ms or 0.0) - (w.rmf.iosq_ms or 0.0) for w in (db2, ims)}
    mean = (4000 * below["db2"] + 2000 * below["ims"]) / 6000 * 1e-3
    expected = float(mmc(6000.0, mean, 12 + 2).wait_time) / 1e-3
    assert db2.rmf.iosq_ms == pytest.approx(expected, rel=1e-9)
