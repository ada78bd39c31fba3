"""The station layouts network builders share (`network_build._station_layouts`): what a
builder takes of its stations' layout from the store, made by a configuration of another rank
count, is what its configuration alone makes, to the bit, for every scenario shape (FICON
channels, Metro Mirror links, Global Mirror, several pools), and it cannot be written."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import host_adapter
from diskmodel.configuration import Configuration, resolve_scenario
from diskmodel.model import network_build
from diskmodel.model.copy_links import LINK_KIND, link_station_names
from diskmodel.model.layout import forget_placements
from diskmodel.model.network import Station, index_arrays, station_classes
from diskmodel.model.network_build import NetworkBuilder
from diskmodel.scenario.loading import load_scenario
from diskmodel.vocabulary import COMPONENT_KIND, STATION_KIND_KEYS

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SHAPES = (
    "ds8800-15k-plus-2-ssd.yaml",  # several tiers
    "ds8800-metro-mirror-distance.yaml",  # Metro Mirror links
    "ds8800-global-mirror-week.yaml",  # Global Mirror: links, no link stations
    "ds8800-zos-ficon-sizing.yaml",  # FICON channels
    "ds8800-zos-oltp-hyperpav.yaml",
    "ds8800-flashcopy-backup.yaml",
)


def _configs(name: str) -> tuple[Configuration, ...]:
    path = SCENARIOS / name
    return resolve_scenario(load_scenario(path), load_catalog(), path.parent)


def _stations_alone(config: Configuration) -> list[Station]:
    """The stations of `config` as written out for it alone (host ports, cards, servers, DA
    pairs, FICON channels, replication links, ranks)."""
    hw = config.hardware
    cards = host_adapter.cards_for_ports(hw.host_adapter, hw.host_ports)
    ways = hw.processor.ways
    out = [Station(f"host port {i}", "host_adapter", 1, 1) for i in range(hw.host_ports)]
    out += [Station(f"host adapter card {c}", "host_adapter", 1, 1) for c in range(cards)]
    out += [Station(f"server {s} ({ways}-way)", "processor", ways, 1) for s in range(2)]
    out += [Station(f"DA pair {i}", "device_adapter", 1, 1) for i in range(hw.da_pairs)]
    if hw.ficon is not None:
        name = hw.ficon.channel.name
        out += [
            Station(f"FICON channel {j} ({name})", "channel", 1, 1)
            for j in range(hw.ficon.channels)
        ]
    out += [Station(name, LINK_KIND, 1, 1) for name in link_station_names(config)]
    out += [Station(r.label, "rank", 1, r.active_drives) for r in config.ranks]
    return out


def _fewer_ranks(config: Configuration) -> Configuration:
    """`config` with its last rank left out: another rank count on the same front end."""
    return dataclasses.replace(config, ranks=config.ranks[:-1])


@pytest.mark.parametrize("name", SHAPES)
def test_a_builder_reads_the_layout_its_configuration_alone_makes(name: str) -> None:
    for config in _configs(name):
        forget_placements()
        # The store made by a configuration of another rank count on this front end.
        NetworkBuilder(_fewer_ranks(config))
        builder = NetworkBuilder(config)
        stations = _stations_alone(config)
        assert list(builder._stations) == stations
        kinds = [STATION_KIND_KEYS.index(s.kind) for s in stations]
        servers = np.array([s.servers if s.kind != "rank" else 1 for s in stations], float)
        assert builder._kind_of_station.tolist() == kinds
        assert builder._servers_at.tobytes() == servers.tobytes()
        assert builder._servers_at.shape == servers.shape
        # The stations whose time is the front end's fixed time: not a Metro Mirror link's.
        links = () if builder._mirror is None else builder._mirror.links
        front = [
            k for k, s in enumerate(stations) if COMPONENT_KIND[s.kind].front_end and k not in links
        ]
        assert builder._front.tolist() == front
        lists = station_classes(servers, np.array(kinds))
        (single, multi, drives), arrays = builder._open_form
        assert (single, multi, drives) == lists
        for mine, alone in zip(arrays, index_arrays(*lists, servers), strict=True):
            assert (mine.dtype, mine.shape, mine.tolist()) == (
                alone.dtype,
                alone.shape,
                alone.tolist(),
            )
        first = len(stations) - len(config.ranks)
        hw = config.hardware
        n_ports = hw.host_ports
        assert builder._first_rank == first
        assert builder._host_stations == n_ports + -(-n_ports // hw.host_adapter.ports_per_adapter)
        assert [stations[k].kind for k in builder._servers] == ["processor"] * 2
        assert [stations[k].name for k in builder._da_pairs] == [
            f"DA pair {i}" for i in range(hw.da_pairs)
        ]
        assert builder._first_da == builder._host_stations + 2
        assert [stations[k].kind for k in builder._channels] == ["channel"] * len(builder._channels)
        assert [stations[k].name for k in builder._links] == link_station_names(config)


def test_a_builder_with_more_ranks_than_the_layout_has_room_for_makes_it_again() -> None:
    config = _configs("ds8800-15k-plus-2-ssd.yaml")[0]
    forget_placements()
    NetworkBuilder(config)
    (layout,) = network_build._station_layouts.values()
    more = dataclasses.replace(config, ranks=config.ranks * (layout.ranks_ahead // 2))
    builder = NetworkBuilder(more)
    assert len(builder._kind_of_station) == len(builder._stations)
    assert builder._open_form[0][2] == list(range(builder._first_rank, len(builder._stations)))


def test_the_shared_layout_cannot_be_written() -> None:
    config = _configs("ds8800-15k-plus-2-ssd.yaml")[0]
    forget_placements()
    builder = NetworkBuilder(config)
    for part in (builder._servers_at, builder._kind_of_station, *builder._open_form[1]):
        with pytest.raises(ValueError, match="read-only"):
            part[:1] = 0
