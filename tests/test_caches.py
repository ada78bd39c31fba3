"""State that outlives a call (issue 32 item 3): per-configuration state belongs to the
configuration's Solver; every module-level cache or container is listed in docs/design.md
("State that outlives a call"), and each listed one keeps the contract written there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import destage, drive, sptf
from diskmodel.components.seek import SeekCurve
from diskmodel.configuration import resolve
from diskmodel.logwrite import _gauss_legendre
from diskmodel.model.costs import drive_gain, drive_work_at
from diskmodel.model.layout import forget_placements
from diskmodel.model.operating import Solver

from .support.builders import scenario

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "diskmodel"
CONTAINERS = {"dict", "list", "set", "OrderedDict", "collections.OrderedDict", "Kept"}
CACHE_CALLS = {"functools.cache", "cache", "functools.lru_cache", "lru_cache"}


def _is_cache(node: ast.expr) -> bool:
    """`@functools.cache`, `@lru_cache(maxsize=16)`, `functools.cache(f)`."""
    target = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(target) in CACHE_CALLS


def _is_empty_container(node: ast.expr | None) -> bool:
    """`{}`, `[]`, `set()`, `dict()`, `list()`, `OrderedDict()`, `Kept(...)` (`model.kept`):
    state a module keeps filling."""
    if isinstance(node, ast.Dict | ast.List | ast.Set):
        return not (node.keys if isinstance(node, ast.Dict) else node.elts)
    return isinstance(node, ast.Call) and ast.unparse(node.func) in CONTAINERS and not node.args


def module_state() -> set[str]:
    """`module.name` of every module-level cache (a memoised function or a name bound to one),
    every module-level name bound to an empty container, and every private module-level
    name bound to an instance of a class of its own module (state held in an object, such
    as `collections_paced._PACING`), in the package."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        body = ast.parse(path.read_text(encoding="utf-8")).body
        own_classes = {node.name for node in body if isinstance(node, ast.ClassDef)}
        for node in body:
            if isinstance(node, ast.FunctionDef) and any(map(_is_cache, node.decorator_list)):
                found.add(f"{module}.{node.name}")
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                targets, value = [node.target], node.value
            if value is not None and (
                _is_empty_container(value) or (isinstance(value, ast.Call) and _is_cache(value))
            ):
                found |= {f"{module}.{t.id}" for t in targets if isinstance(t, ast.Name)}
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in own_classes
            ):
                found |= {
                    f"{module}.{t.id}"
                    for t in targets
                    if isinstance(t, ast.Name) and t.id.startswith("_")
                }
    return found


def documented_state() -> set[str]:
    """The names in docs/design.md's table of module-level state."""
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text.split("### State that outlives a call", 1)[1].split("\n### ", 1)[0]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            quoted = re.findall(r"`([^`]+)`", first)
            module = quoted[0].rsplit(".", 1)[0]
            names |= {q if "." in q else f"{module}.{q}" for q in quoted}
    return names


def test_every_module_level_cache_is_documented_and_every_documented_one_exists() -> None:
    assert module_state() == documented_state()


def test_the_scan_sees_each_kind_of_module_state() -> None:
    tree = ast.parse(
        "import functools\n@functools.lru_cache(maxsize=2)\ndef f(x): return x\n"
        "g = functools.cache(len)\n_seen: dict[str, int] = {}\nLIMITS = {'a': 1}\n"
    )
    cached = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert cached == ["f"]
    values = [n.value for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)]
    assert [_is_cache(v) for v in values if v is not None] == [True, False, False]
    assert [_is_empty_container(v) for v in values] == [False, True, False]


# ------------------------------------------------------------- per network inputs: the Solver


def test_solvers_share_costs_only_with_configurations_that_build_the_same_networks() -> None:
    """Solvers of configurations whose networks read the same (`operating.builds_for`) share
    their operation costs and gains; another load has its own; what is kept is pure."""
    forget_placements()
    config = resolve(scenario(**{"pools.0.easy_tier": "auto"}), load_catalog())
    other = resolve(
        scenario(**{"pools.0.easy_tier": "auto", "workloads.0.iops": 9000}), load_catalog()
    )
    one, two, three = Solver(config), Solver(config), Solver(other)
    assert one.costs is two.costs
    assert three.costs is not one.costs
    one.planned_point()
    assert one.costs._gains
    assert not three.costs._gains
    rank = config.ranks[0]
    depth = one.costs.queue_limit(rank)
    np.testing.assert_array_equal(one.costs.gain(rank, 0.37, depth), drive_gain(rank, 0.37, depth))
    gain = one.costs.gain(rank, 0.37, depth)
    assert not gain.flags.writeable
    assert one.costs.work_at(0.8, gain) == drive_work_at(0.8, gain)


def test_a_solver_s_answers_do_not_depend_on_another_solver_before_it() -> None:
    config = resolve(scenario(**{"pools.0.easy_tier": "auto"}), load_catalog())
    other = resolve(scenario(**{"workloads.0.iops": 9000}), load_catalog())
    fresh = Solver(config).planned_point().response_s
    Solver(other).planned_point()
    assert Solver(config).planned_point().response_s == fresh


# ------------------------------------------------------------- module level: pure memos


def test_the_shipped_catalog_is_loaded_once_and_is_frozen() -> None:
    """(A user's file edited is read anew: tests/test_user_catalog.py,
    test_the_last_given_file_is_read_as_written_each_time.)"""
    catalog = load_catalog()
    assert load_catalog() is catalog
    with pytest.raises(ValueError, match="frozen"):
        catalog.drives = {}  # type: ignore[misc]


def test_the_json_writer_s_field_names_are_each_dataclass_s_own() -> None:
    """`report.json_result._FIELDS`: what the writer keeps per type is the type's fields, in
    order, for every record a prediction writes."""
    import dataclasses

    from diskmodel import api
    from diskmodel.report import json_result

    path = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    json_result.to_json(api.predict(api.load_scenario(path), base_dir=path.parent))
    assert len(json_result._FIELDS) > 5
    for kind, names in json_result._FIELDS.items():
        assert names == tuple(f.name for f in dataclasses.fields(kind))


def test_the_seek_fit_memo_is_the_fit() -> None:
    figures = (0.2, 3.4, 7.0)
    assert drive._fit(*figures) == SeekCurve.fit(*figures)


def test_the_sptf_memos_are_their_simulations() -> None:
    d = load_catalog().installed_drive("ds8800-951", "15k-300")
    (curve, rotation, advance), *_ = drive.gain_simulations([d])
    key = (curve, rotation, round(advance % 1.0, 2), sptf.SPAN_NODES[2])
    assert sptf._short_means(*key) == sptf._short_means.__wrapped__(*key)
    assert sptf._long_means(*key) == sptf._long_means.__wrapped__(*key)


def test_the_pure_memos_hand_out_read_only_or_immutable_values() -> None:
    u, w = destage._spacing_law(5)
    fresh = destage._spacing_law.__wrapped__(5)
    np.testing.assert_array_equal(u, fresh[0])
    np.testing.assert_array_equal(w, fresh[1])
    nodes, weights = _gauss_legendre(4)
    assert not nodes.flags.writeable
    assert not weights.flags.writeable


def test_installed_drives_are_one_object_per_catalog_entry_and_system() -> None:
    catalog = load_catalog()
    d = catalog.installed_drive("ds8800-951", "15k-300")
    assert catalog.installed_drive("ds8800-951", "15k-300") is d
    assert d == catalog.drives["15k-300"].as_packaged("ds8800-951")
    # Another catalog entry (a user's file, a band's estimate moved) is another drive.
    entry = catalog.drives["15k-300"]
    moved = entry.model_copy(update={"controller_overhead_ms": 0.5})
    other = catalog.model_copy(update={"drives": {**catalog.drives, "15k-300": moved}})
    changed = other.installed_drive("ds8800-951", "15k-300")
    assert changed is not d
    assert changed.controller_overhead_ms == 0.5


def test_alternatives_are_validated_once_per_scenario_and_catalog() -> None:
    from diskmodel.scenario import schema

    from .support.builders import BASE, with_data

    catalog = load_catalog()
    swap = {"name": "nl", "set": {"pools.0.ranks.0.drive": "nl-3tb"}}
    base = with_data({**BASE, "analyses": {"compare": [swap]}})
    first = base.alternatives(catalog)
    again = base.alternatives(catalog)
    assert again == first
    assert again[1][1] is first[1][1]
    # What is kept is what validating anew gives.
    assert first[1][1] == base.alternative(base.analyses.compare[0], catalog)
    assert first[1][1].pools[0].ranks[0].drive == "nl-3tb"
    # Another catalog object (a user's file, a band's estimate moved) validates anew.
    other = catalog.model_copy()
    assert base.alternatives(other)[1][1] is not first[1][1]
    # A changed scenario is another object: its alternatives are its own, not the original's.
    renamed = base.model_copy(update={"name": "renamed"})
    changed = base.model_copy(update={"analyses": base.analyses.model_copy(update={"compare": []})})
    assert renamed.alternatives(catalog)[1][1] is not first[1][1]
    assert changed.alternatives(catalog) == [(base.name, changed)]
    assert len(schema._alternatives) <= schema._ALTERNATIVES_KEPT


def test_span_costs_are_their_computation_and_follow_the_drive() -> None:
    from diskmodel.catalog import entries
    from diskmodel.model import costs

    config = resolve(scenario(**{"pools.0.easy_tier": "auto"}), load_catalog())
    Solver(config).planned_point()
    assert costs._span_costs
    for (_, op, span), (d, cost) in list(costs._span_costs.items())[:50]:
        assert costs._span_cost(op, d, span) == cost
    # A catalog whose drive has other figures never meets the first one's costs: solved after
    # it, it gives what it gives solved first.
    catalog = load_catalog()
    entry = catalog.drives["15k-300"]
    moved = entry.model_copy(update={"controller_overhead_ms": entry.controller_overhead_ms + 1})
    other = catalog.model_copy(update={"drives": {**catalog.drives, "15k-300": moved}})
    slower = resolve(scenario(**{"pools.0.easy_tier": "auto"}), other)
    after = Solver(slower).planned_point().response_s
    costs._span_costs.clear()
    assert Solver(slower).planned_point().response_s == after
    assert after > Solver(config).planned_point().response_s
    assert len(entries._installed) <= entries._INSTALLED_KEPT
