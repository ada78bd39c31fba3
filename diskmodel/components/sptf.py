"""Shortest-positioning-time-first (SPTF) scheduling of an HDD holding n requests, with the
leftovers kept: the mean positioning time per request, tabulated from a seeded simulation.

Why a simulation. A drive with n requests queued serves the one it can reach soonest (seek
plus rotational wait: SPTF/SATF, Seltzer, Chen & Ousterhout, USENIX Winter 1990; Worthington,
Ganger & Patt, SIGMETRICS 1994; Jacobson & Wilkes, HP Labs HPL-CSP-91-7). If the n requests
were fresh every time, the expected positioning would be E_h[ int P(P > t | h)^n dt ], a
closed form; but a real queue keeps the requests it passed over, and these are the far-away
ones, so it does worse than that bound (about 4% at n = 2 and 9% at n = 64 on a 15K drive).
No closed form is known for the queue with leftovers, so this module simulates it.

The simulation (`_simulate`). A drive's surface is (cylinder position y in [0, f], angle
theta in [0, 1) revolutions), f the fraction of the stroke the data occupies. The drive holds
exactly n requests (a closed loop: each one served is replaced by a fresh uniform request,
which is what a load-dependent station with n present means). After the fixed work of a
request (controller overhead and transfer, `advance_rev` of a revolution) the head is at the
served request's cylinder and angle + advance; the positioning time to request j is
seek(|y_j - h|) + the wait until theta_j passes under the head after that seek. The request
with the least positioning time is served. R independent replicas per depth run in one numpy
array (requests beyond a row's depth masked), seeded, so the table is the same on every run.
Accuracy: the standard error of each tabulated mean is under 0.5% (R x steps samples; checked
by the tests against a longer run).

Tabulation. Depth nodes 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64 and span nodes 1/64 ... 1;
`relative_positioning` interpolates the ratio P(n) / P(1) linearly in log n and log f (the
ratio varies slowly with f: within 2% between f = 1/4 and 1 on a 15K drive). Each (curve,
rotation, advance, span node) is simulated once per process and cached: the short queues
(up to 8) in about 0.03 s, the long ones (only for a drive that holds more than 8 commands) in
about 0.3 s. The runs the shipped catalog's drives ask for, short and long, are run once and
kept in a file (`KEPT_FILE`).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from dataclasses import astuple
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from diskmodel.components.seek import SeekCurve

FloatArray = NDArray[np.float64]

DEPTH_NODES: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)
"""Queue lengths the simulation tabulates; others are interpolated in log n."""
MAX_TABULATED_DEPTH = DEPTH_NODES[-1]
SPAN_NODES: tuple[float, ...] = (1 / 64, 1 / 16, 1 / 4, 1 / 2, 1.0)
"""Occupied fractions the simulation tabulates; others are interpolated in log f."""
_REPLICAS = 24
_MEASURED_STEPS = 500
_SEED = 20_050_101


def start_state(
    span: float, depths: tuple[int, ...], replicas: int, seed: int
) -> tuple[np.random.Generator, NDArray[np.bool_], FloatArray, FloatArray, FloatArray, FloatArray]:
    """The simulation's start: the seeded generator, which slots of each row hold a request
    (a row per replica of each depth), the requests' cylinders and angles and the head's, drawn
    in this order (the order fixes every number the simulation gives)."""
    rng = np.random.default_rng(seed)
    width = max(depths)
    rows = replicas * len(depths)
    active = np.zeros((rows, width), dtype=bool)
    for i, d in enumerate(depths):
        active[i * replicas : (i + 1) * replicas, :d] = True
    y = rng.random((rows, width)) * span
    theta = rng.random((rows, width))
    head = rng.random(rows) * span
    phase = rng.random(rows)
    return rng, active, y, theta, head, phase


def _simulate(
    curve: SeekCurve,
    rotation_ms: float,
    advance_rev: float,
    span: float,
    depths: tuple[int, ...],
    replicas: int = _REPLICAS,
    steps: int = _MEASURED_STEPS,
    seed: int = _SEED,
) -> tuple[float, ...]:
    """Mean SPTF positioning time (ms) at each queue length in `depths`, leftovers kept."""
    rng, active, y, theta, head, phase = start_state(span, depths, replicas, seed)
    rows, width = active.shape
    index = np.arange(rows)
    warm = 3 * width + 50
    total = np.zeros(rows)
    # Adding 0 where a row holds the request and inf where it does not: the masking of
    # np.where(active, positioning, inf), in place. The step's arithmetic is written for speed
    # (some 600 steps on small arrays, so numpy's per-call cost is most of it) and gives the
    # same numbers bit for bit: w - floor(w) is np.mod(w, 1.0) (both exact but for the one
    # rounding of r + 1 when w < 0).
    absent = np.where(active, 0.0, np.inf)
    distance = np.empty((rows, width))
    wait = np.empty((rows, width))
    for step in range(warm + steps):
        start = phase + advance_rev
        np.subtract(y, head[:, None], out=distance)
        np.abs(distance, out=distance)
        seek = curve.seek_ms(distance)
        np.subtract(theta, start[:, None], out=wait)
        wait -= seek / rotation_ms
        wait -= np.floor(wait)
        wait *= rotation_ms
        positioning = seek + wait
        positioning += absent
        chosen = positioning.argmin(axis=1)
        if step >= warm:
            total += positioning[index, chosen]
        head = y[index, chosen]
        phase = theta[index, chosen]
        y[index, chosen] = rng.random(rows) * span
        theta[index, chosen] = rng.random(rows)
    per_row = total / steps
    return tuple(
        float(per_row[i * replicas : (i + 1) * replicas].mean()) for i in range(len(depths))
    )


_SHORT = tuple(d for d in DEPTH_NODES if d <= 8)
_LONG = tuple(d for d in DEPTH_NODES if d > 8)

KEPT_FILE = "sptf_means.json"
"""The short-queue simulations the shipped catalog's drives ask for, run once and kept: every
installed HDD's random read (its command-queueing gain, `drive.gain_simulations`) at every
span node (`python -m diskmodel.components.drive kept`; `make catalog` regenerates it).
A run asks for 2-5 of them at about 0.02 s each, 5-10% of a whole `diskmodel run`. Each is
kept under every input of the simulation, so a drive with other figures (a user's catalog
file) or another request size is simulated as before; tests/components/test_drive.py checks
the file against a fresh simulation of each, bit for bit."""


def _key(
    curve: SeekCurve,
    rotation_ms: float,
    advance_rev: float,
    span: float,
    depths: tuple[int, ...] = _SHORT,
    seed: int = _SEED,
) -> tuple[float, ...]:
    """A simulation's inputs, all of them (`KEPT_FILE`'s key): the short queues' run or, with
    `_LONG` and its own seed, the long queues'."""
    return (
        *astuple(curve),
        rotation_ms,
        advance_rev,
        span,
        *depths,
        _REPLICAS,
        _MEASURED_STEPS,
        seed,
    )


@functools.cache
def _kept() -> dict[tuple[float, ...], tuple[float, ...]]:
    path = resources.files("diskmodel.components") / KEPT_FILE
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["means"]
        return {tuple(e["inputs"]): tuple(e["means"]) for e in entries}
    except (OSError, ValueError, KeyError, TypeError):  # missing or damaged: simulated instead
        return {}


@functools.cache
def _short_means(
    curve: SeekCurve, rotation_ms: float, advance_rev: float, span: float
) -> tuple[float, ...]:
    kept = _kept().get(_key(curve, rotation_ms, advance_rev, span))
    return kept if kept is not None else _simulate(curve, rotation_ms, advance_rev, span, _SHORT)


def kept_means(inputs: Iterable[tuple[SeekCurve, float, float]]) -> dict[str, Any]:
    """`KEPT_FILE`'s contents: the short-queue and the long-queue simulations at every span
    node for each (seek curve, rotation in ms, fixed work of a request in revolutions) in
    `inputs`, as `relative_positioning` asks for them."""
    means: dict[tuple[float, ...], tuple[float, ...]] = {}
    for curve, rotation_ms, advance_rev in inputs:
        advance = _advance(advance_rev)
        for span in SPAN_NODES:
            for depths, seed in ((_SHORT, _SEED), (_LONG, _SEED + 1)):
                key = _key(curve, rotation_ms, advance, span, depths, seed)
                if key not in means:
                    means[key] = _simulate(curve, rotation_ms, advance, span, depths, seed=seed)
    inputs_are = "seek curve (5), rotation_ms, advance_rev, span, depths (6), replicas, steps, seed"
    return {
        "inputs_are": inputs_are,
        "means": [{"inputs": list(k), "means": list(v)} for k, v in sorted(means.items())],
    }


@functools.cache
def _long_means(
    curve: SeekCurve, rotation_ms: float, advance_rev: float, span: float
) -> tuple[float, ...]:
    kept = _kept().get(_key(curve, rotation_ms, advance_rev, span, _LONG, _SEED + 1))
    if kept is not None:
        return kept
    return _simulate(curve, rotation_ms, advance_rev, span, _LONG, seed=_SEED + 1)


def _table(
    curve: SeekCurve, rotation_ms: float, advance_rev: float, span: float, deepest: int
) -> tuple[float, ...]:
    """P(n) / P(1) at the depth nodes up to the first one >= `deepest`, for one span node.

    Two simulations, cached: short queues (up to 8) and long ones, so the short ones are not
    padded to 64 columns, and a drive that holds at most a few commands (the device adapter
    keeps 2 at an HDD) never pays for the long run (about 90% of the cost). Both runs of the
    shipped catalog's drives are kept in `KEPT_FILE`."""
    means = _short_means(curve, rotation_ms, advance_rev, span)
    if deepest > _SHORT[-1]:
        means = means + _long_means(curve, rotation_ms, advance_rev, span)
    ratios = [m / means[0] for m in means]
    # A longer queue never positions slower: remove simulation noise that would say otherwise.
    return tuple(np.minimum.accumulate(ratios).tolist())


def _advance(advance_rev: float) -> float:
    """The fixed work between two requests as the simulation takes it: the part of a
    revolution it leaves the head past the served sector, to 0.01 revolution (the cache must
    not grow with every request size)."""
    return round(advance_rev % 1.0, 2)


_LOG_DEPTHS = tuple(math.log(n) for n in range(1, MAX_TABULATED_DEPTH + 1))
_LOG_DEPTH_NODES = tuple(math.log(float(n)) for n in DEPTH_NODES)
"""log n of every queue length up to the deepest tabulated, and of the tabulated ones: what
`relative_positioning` interpolates in."""


def relative_positioning(
    curve: SeekCurve, rotation_ms: float, advance_rev: float, span: float, depths: int
) -> list[float]:
    """P(n) / P(1) for n = 1..depths (depths <= 64): SPTF positioning with leftovers kept,
    relative to one request at a time, at the occupied fraction `span`."""
    if not 1 <= depths <= MAX_TABULATED_DEPTH:
        raise ValueError(f"depths must be in 1..{MAX_TABULATED_DEPTH}, got {depths}")
    span = min(max(span, SPAN_NODES[0]), 1.0)
    advance = _advance(advance_rev)
    hi = next(i for i, node in enumerate(SPAN_NODES) if node >= span - 1e-12)
    table = list(_table(curve, rotation_ms, advance, SPAN_NODES[hi], depths))
    if hi > 0 and SPAN_NODES[hi] > span:
        lo_node, hi_node = SPAN_NODES[hi - 1], SPAN_NODES[hi]
        w = math.log(span / lo_node) / math.log(hi_node / lo_node)
        low = _table(curve, rotation_ms, advance, lo_node, depths)
        table = [(1 - w) * a + w * b for a, b in zip(low, table, strict=True)]
    # Interpolated in log n between the depth nodes, every queue length at once.
    relative: list[float] = np.interp(
        _LOG_DEPTHS[:depths], _LOG_DEPTH_NODES[: len(table)], table
    ).tolist()
    return relative
