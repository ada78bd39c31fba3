"""Hypothesis strategies for hostile, broken and extreme scenario files.

Three families, from least to most structured:

- `mutated_bytes`: the text of a real scenario (the shipped files and the test suite's VALID)
  with random byte-level damage: spans deleted, lines duplicated (duplicate keys), random
  bytes and unicode inserted, tabs, truncation, invalid UTF-8.
- `mutated_documents`: a real scenario parsed to plain data, then changed at the value level:
  a leaf replaced by an edge value (0, tiny, huge, negative, NaN, infinity, a wrong type, a
  long or odd unicode string, deep nesting), a key deleted or inserted, a list item dropped or
  repeated; dumped back to YAML text.
- `edge_scenarios`: scenarios that are meant to be valid, built from the catalog, with every
  number drawn at its edges (I/O rates 1e-3 to 1e9, 0% and 100% reads, hit ratios 0 and 1,
  queue depths to 256, several pools, tiers and workloads): these reach the model.

Sizes are bounded so that one case stays well under a second of loading.
"""

from __future__ import annotations

import io
import math
from functools import cache
from typing import Any

from hypothesis import strategies as st
from ruamel.yaml import YAML

from diskmodel.catalog import load_catalog
from diskmodel.yamlio import parse_yaml

from ..conftest import SCENARIOS
from .scenarios import VALID

Path_ = tuple[str | int, ...]


ANALYSES = """\
analyses:
  curve: {points: 7}
  compare:
    - name: bigger cache
      set: {system.cache_gb: 256, workloads.oltp.iops: 8000}
  growth: {factors: [0.5, 2, 40]}
  tier_sweep: {pool: p0, drive: ssd-300, raid: raid5-7+p, counts: [0, 1, 2]}
"""
"""Every analysis the schema offers, so that mutation reaches them too."""


@cache
def seed_texts() -> tuple[str, ...]:
    """The YAML texts every mutation starts from: the shipped scenarios, VALID, VALID with
    every analysis."""
    return (*(p.read_text(encoding="utf-8") for p in SCENARIOS), VALID, VALID + ANALYSES)


@cache
def seed_documents() -> tuple[Any, ...]:
    return tuple(parse_yaml(text, "seed").data for text in seed_texts())


# ------------------------------------------------------------------------------ edge values

LONG_TEXT = "x" * 10_000
ODD_TEXT = [
    "",
    " ",
    "\u202e\u0000\ufeff",  # right-to-left override, NUL, BOM
    "💥" * 50,
    "<script>alert(1)</script>",
    "{0}{name}%s%%",
    "../../etc/passwd",
    "\x1b[2J\x1b[31mred",
    "very_high",
    "ssd",
    "ds8800-951",
    "15k-146",
    "raid5-7+p",
    "1e3",
    "nan",
    "-inf",
    "0x10",
    "null",
    "~",
]

EDGE_NUMBERS = [
    0,
    -0.0,
    -1,
    1,
    2,
    3,
    8,
    1e-300,
    5e-324,
    1e-9,
    1 - 1e-9,
    1 + 1e-9,
    0.5,
    1e3,
    1e9,
    1e9 + 1,
    1e12,
    1e308,
    -1e308,
    2**31,
    2**63,
    10**30,
    math.nan,
    math.inf,
    -math.inf,
]


def edge_values(depth: int = 2) -> st.SearchStrategy[Any]:
    """Any value a hostile or careless file could hold where a number or name belongs."""
    scalars: st.SearchStrategy[Any] = st.one_of(
        st.sampled_from(EDGE_NUMBERS),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([*ODD_TEXT, LONG_TEXT]),
        st.text(max_size=30),
        st.booleans(),
        st.none(),
    )
    if depth == 0:
        return scalars
    inner = edge_values(depth - 1)
    return st.one_of(
        scalars,
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=10), inner, max_size=3),
        st.builds(_nest, st.integers(min_value=1, max_value=80)),
    )


def _nest(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


# ------------------------------------------------------------------------ data-level mutation


def _paths(node: Any, path: Path_ = ()) -> list[Path_]:
    """Every key path and list index in `node`, parents before children."""
    out: list[Path_] = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.extend(_paths(value, (*path, index)))
    return out


def _get(node: Any, path: Path_) -> Any:
    for step in path:
        node = node[step]
    return node


@st.composite
def _mutate_once(draw: st.DrawFn, document: Any) -> Any:
    paths = _paths(document)[1:]
    if not paths:
        return draw(edge_values())
    path = draw(st.sampled_from(paths))
    parent = _get(document, path[:-1])
    step = path[-1]
    action = draw(st.sampled_from(["replace", "replace", "delete", "insert", "repeat", "scale"]))
    if action == "replace":
        parent[step] = draw(edge_values())
    elif action == "delete":
        del parent[step]
    elif action == "insert":
        if isinstance(parent, dict):
            key = draw(
                st.sampled_from([*_KNOWN_KEYS, "colour", "", "0", "float", "tuple[", LONG_TEXT])
                | st.text(max_size=12)
            )
            parent[key] = draw(edge_values())
        else:
            parent.insert(int(step), draw(edge_values()))
    elif action == "repeat" and isinstance(parent, list):
        parent.extend([parent[step]] * draw(st.integers(min_value=1, max_value=70)))
    else:
        value = parent[step]
        if isinstance(value, int | float) and not isinstance(value, bool):
            parent[step] = value * draw(st.sampled_from([0, -1, 1e-9, 1e-3, 1e3, 1e9, 1e300]))
        else:
            parent[step] = draw(edge_values(depth=0))
    return document


_KNOWN_KEYS = [
    "schema_version",
    "name",
    "description",
    "system",
    "pools",
    "workloads",
    "analyses",
    "model",
    "processor_ways",
    "cache_gb",
    "host_ports",
    "host_adapter",
    "da_pairs",
    "easy_tier",
    "ranks",
    "drive",
    "raid",
    "count",
    "da_pair",
    "iops",
    "iops_range",
    "read_fraction",
    "read_hit_ratio",
    "destage_ratio",
    "read_size_kib",
    "write_size_kib",
    "read_sequential_fraction",
    "write_sequential_fraction",
    "capacity_gb",
    "skew",
    "level",
    "points",
    "heatmap",
    "sequential_level",
    "queue_depth",
    "users",
    "think_time_ms",
    "pin_tier",
    "curve",
    "compare",
    "growth",
    "factors",
    "tier_sweep",
    "counts",
    "set",
]


@st.composite
def mutated_documents(draw: st.DrawFn, max_mutations: int = 4) -> Any:
    """A seed scenario's data with 1 to `max_mutations` value-level changes."""
    import copy

    document = copy.deepcopy(draw(st.sampled_from(seed_documents())))
    for _ in range(draw(st.integers(min_value=1, max_value=max_mutations))):
        document = draw(_mutate_once(document))
    return document


def dump_yaml(document: Any) -> str:
    """YAML text for plain data (NaN and infinity as .nan/.inf, any unicode)."""
    yaml = YAML(typ="safe", pure=True)
    yaml.allow_unicode = True
    yaml.default_flow_style = False
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    return buffer.getvalue()


# ------------------------------------------------------------------------ byte-level mutation


@st.composite
def mutated_bytes(draw: st.DrawFn) -> bytes:
    """A seed scenario's text with random byte-level damage (1 to 3 edits)."""
    text = draw(st.sampled_from(seed_texts()))
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(
            st.sampled_from(["delete", "insert", "duplicate_line", "swap_lines", "truncate"])
        )
        at = draw(st.integers(min_value=0, max_value=len(data)))
        if kind == "delete":
            end = min(len(data), at + draw(st.integers(min_value=1, max_value=40)))
            del data[at:end]
        elif kind == "insert":
            data[at:at] = draw(
                st.binary(max_size=12)
                | st.text(max_size=12).map(lambda t: t.encode("utf-8"))
                | st.sampled_from(
                    [
                        b"\t",
                        b": ",
                        b"- ",
                        b"&a ",
                        b"*a",
                        b"!!python/object:os.system ",
                        b"<<: ",
                        b"{",
                        b"[",
                        b"'",
                        b'"',
                        b"\xff\xfe",
                        b"\r",
                        b"\x00",
                        b"---\n",
                        b"? ",
                    ]
                )
            )
        elif kind == "truncate":
            del data[at:]
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            if kind == "duplicate_line":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


# ------------------------------------------------------------------ valid scenarios at the edges

IOPS_EDGES = [1e-3, 0.5, 1.0, 100.0, 5e3, 1e5, 1e6, 1e9]
FRACTION_EDGES = [0.0, 1e-9, 0.3, 0.5, 0.7, 1 - 1e-9, 1.0]
SIZE_EDGES_KIB = [0.5, 4.0, 64.0, 1024.0, 16384.0]


@st.composite
def edge_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario meant to validate, with its numbers drawn at their edges."""
    catalog = load_catalog()
    system = catalog.systems[draw(st.sampled_from(sorted(catalog.systems)))]
    option = draw(st.sampled_from(system.processor_options))
    da_pairs = draw(st.integers(min_value=1, max_value=system.max_da_pairs))
    pools = []
    room = da_pairs * system.max_ranks_per_da_pair
    for p in range(draw(st.integers(min_value=1, max_value=3))):
        groups = []
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            drive = catalog.drives[draw(st.sampled_from(system.drives))]
            raids = [
                r
                for r in system.raid_formats
                if not (drive.kind == "ssd" and catalog.raid_formats[r].level == 6)
            ]
            count = draw(st.integers(min_value=1, max_value=max(1, min(room, 48))))
            if room < count:
                break
            room -= count
            groups.append(
                {"drive": drive.name, "raid": draw(st.sampled_from(raids)), "count": count}
            )
        if not groups:
            break
        easy_tier: Any = draw(st.sampled_from(["auto", "off"]))
        tiers = {catalog.drives[g["drive"]].tier for g in groups}
        if easy_tier == "auto" and len(tiers) > 2 and system.easy_tier_generation == 1:
            easy_tier = {"mode": "auto", "generation": 2}  # the first manages two tiers only
        pools.append({"name": f"p{p}", "easy_tier": easy_tier, "ranks": groups})
    scenario: dict[str, Any] = {
        "schema_version": 1,
        "name": draw(st.sampled_from(["edge", "<b>edge</b> & 'quotes'", "ünïcødé 💾"])),
        "system": {
            "model": system.name,
            "processor_ways": option.ways,
            "cache_gb": draw(st.sampled_from(option.cache_gb_options)),
            "host_ports": draw(st.sampled_from([1, 2, 4, system.max_host_ports])),
            "da_pairs": da_pairs,
        },
        "pools": pools,
        "workloads": [],
    }
    for w in range(draw(st.integers(min_value=1, max_value=3))):
        pool = pools[draw(st.integers(min_value=0, max_value=len(pools) - 1))]
        capacity = (
            sum(
                g["count"]
                * catalog.raid_formats[g["raid"]].data_drives
                * catalog.drives[g["drive"]].capacity_gb
                for g in pool["ranks"]
            )
            / 4
        )  # at most three workloads share a pool: together they fill 3/4 of it
        workload: dict[str, Any] = {
            "name": f"w{w}",
            "pool": pool["name"],
            "read_fraction": draw(st.sampled_from(FRACTION_EDGES)),
            "read_hit_ratio": draw(st.sampled_from(FRACTION_EDGES)),
            "destage_ratio": draw(st.sampled_from(FRACTION_EDGES)),
            "read_size_kib": draw(st.sampled_from(SIZE_EDGES_KIB)),
            "write_size_kib": draw(st.sampled_from(SIZE_EDGES_KIB)),
            "read_sequential_fraction": draw(st.sampled_from(FRACTION_EDGES)),
            "write_sequential_fraction": draw(st.sampled_from(FRACTION_EDGES)),
            "capacity_gb": draw(st.sampled_from([capacity, capacity * 1e-6, 1e-3])),
        }
        load = draw(st.sampled_from(["iops", "iops", "queue_depth", "users"]))
        if load == "iops":
            workload["iops"] = draw(st.sampled_from(IOPS_EDGES))
        elif load == "queue_depth":
            # Populations stay at a few hundred here: the cost of the exact closed solution
            # grows with its square (large populations are in the edge tests,
            # tests/model/test_model_edges.py and tests/queueing/test_queueing_edges.py).
            workload["queue_depth"] = draw(st.sampled_from([1, 2, 64, 256]))
        else:
            workload["users"] = draw(st.sampled_from([1, 50, 256]))
            workload["think_time_ms"] = draw(st.sampled_from([0.0, 1e-3, 10.0, 3.6e6]))
        skew = draw(
            st.sampled_from(
                [
                    None,
                    {"level": "very_high"},
                    {"level": 1.000001},
                    {"level": 1000.0},
                    {"points": [[0.2, 0.8]]},
                    {"points": [[0.0, 0.0], [1.0, 1.0]]},
                    {"points": [[1e-9, 1 - 1e-9]]},
                ]
            )
        )
        if skew is not None:
            workload["skew"] = skew
        scenario["workloads"].append(workload)
    analyses: dict[str, Any] = {"curve": {"points": draw(st.sampled_from([2, 60, 2000]))}}
    if draw(st.booleans()):
        closed = any("iops" not in w for w in scenario["workloads"])
        # A closed population grown 1000x would pass the 4,096 bound (refused at validation).
        factors = [[1e-3], [1.0, 2.0]] if closed else [[1e-3], [1.0, 2.0], [1000.0]]
        analyses["growth"] = {"factors": draw(st.sampled_from(factors))}
    if draw(st.booleans()):
        analyses["tier_sweep"] = {
            "pool": "p0",
            "drive": draw(st.sampled_from(system.drives)),
            "raid": draw(st.sampled_from(system.raid_formats)),
            "counts": draw(st.sampled_from([[0], [0, 1], [1, 300 // 2]])),
        }
    if draw(st.booleans()):
        analyses["compare"] = [
            {
                "name": "other cache",
                "set": {"system.cache_gb": draw(st.sampled_from(option.cache_gb_options))},
            }
        ]
    scenario["analyses"] = analyses
    return scenario
