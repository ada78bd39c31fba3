"""The application model (`model.application`) against a seeded discrete-event simulation of
the fork-join network it stands for, without the storage model: users think Exp(Z), run one
Exp(cpu) job on c FCFS CPUs, then issue k I/Os in rounds of p (a round ends when its slowest
I/O does), each I/O to one of M FCFS servers chosen at random, Exp(S). The model is the closed
network of `closed_network`: M single servers of demand S / M per host I/O, the CPUs (c
servers, cpu / k), `customers(N, p)` customers and `application_loop`'s think per I/O.

Measured on a grid of 144 points (300,000 transactions after a 10% warm-up each, seed 7; the
99% confidence half-width of the simulated rate, 20 batch means, 0.11-0.54%): p in 1, 2, 4,
8; k in 8, 16; M in 4, 16; S = 5 ms; hosts A (c = 8, cpu = 2 ms, Z = 50 ms), B (c = 2, 5 ms,
200 ms), C (c = 2, 10 ms, 100 ms: CPU-bound when M = 16 and k = 8); N at 0.5, 1 and 3 times the
knee N* = X_max (Z + R_1) (R_1 the model's at one user). Error = model / simulation - 1 in the
transaction rate, lowest and highest over the 12 points of each cell (host, k, M):

    p   0.5 N*                     N*                         3 N*
    1   -0.19 .. +0.18             -0.07 .. +0.15             -0.09 .. +0.26
    2   -0.78 .. +2.75             -0.99 .. +1.21             -0.17 .. +0.19
    4   +0.12 .. +6.27             -0.31 .. +2.74             -0.49 .. +0.39
    8   +1.05 .. +10.10            +0.27 .. +4.55             -1.05 .. +0.65

By what binds (p > 1): storage -1.05 .. +10.10%, CPU -0.14 .. +4.55%, both -0.06 .. +1.98%.
Beyond the grid, one user (N = 1, all three hosts, k and M as above): p = 2 -14.19 .. -3.16%,
p = 4 +0.81 .. +8.10%, p = 8 +0.90 .. +13.23%.

p = 1 is exact MVA (product form): every point within the simulation's own error.

p > 1, the direction: OPTIMISTIC (model above the simulation) at light load and at the knee,
growing with p and with p / M, and within about 1% either way at 3 N* (where both sit at the
bound). Why: a round's p I/Os arrive at the servers together, so with p near M several land
on the same server and queue behind one another; the round then lasts longer than the H_p S
of p independent exponentials and the user holds fewer than p / H_p I/Os in flight. The
model's streams are independent customers: by the arrival theorem each sees the others'
time-averaged queue, never its siblings all arriving at once. At one user, p = 8, k = 16 the
error falls with M as the collisions do: +13.2% (M = 4), +4.4% (16), +1.7% (64), +0.7%
(1,000). Rounding adds to it: `customers` rounds N p / H_p to whole customers, 2.94 -> 3 at
p = 8 and 1.92 -> 2 at p = 4 for one user. At the CPU-bound knee (host C, M = 16, k = 8) the
optimism is +2.7% (p = 4) and +4.6% (p = 8): the streams' CPU visits are 1 / e of a
transaction's, with the rest a delay that never queues.

Known gap, PESSIMISTIC: one user with p = 2 is solved as round(1.33) = 1 customer, so its
parallelism is rounded away entirely (-14.2% at k = 16, M = 16); the rounding is over all the
users, so it fades as N grows (within 3% from 0.5 N* on). Nothing measured exceeds 15%.

The tests run a few of the grid's points (the worst of several cells, each kind of bound) with
150,000 transactions (about 13 s in all): p = 1 within 2%, p > 1 inside the band of its cell
above (`BANDS`: the measured range widened by 0.5% each side for the simulation's own error,
then rounded outward to a half percent).
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import stats

from diskmodel.components.host import customers
from diskmodel.configuration import ApplicationConfig
from diskmodel.model.application import application_loop
from diskmodel.queueing.closed_network import closed_network

BATCHES = 20


@dataclass(frozen=True)
class Case:
    """The abstract network: `users` think Exp(`think_s`), run Exp(`cpu_s`) on `cpus` FCFS
    CPUs, then `ios` I/Os in rounds of `parallel`, each I/O to one of `disks` FCFS servers
    chosen at random, Exp(`service_s`)."""

    users: int
    think_s: float
    cpu_s: float
    cpus: int
    ios: int
    parallel: int
    disks: int
    service_s: float


def model_rate(case: Case, users: int | None = None) -> float:
    """Transactions per second the application model gives (closed network per host I/O)."""
    n = case.users if users is None else users
    app = ApplicationConfig(
        name="t",
        users=n,
        think_time_s=case.think_s,
        cpu_s=case.cpu_s,
        cpus=case.cpus,
        parallel_ios=case.parallel,
        ios_per_transaction=case.ios,
    )
    population = customers(n, case.parallel)
    think, cpu = application_loop(app, population / n)
    demands = [case.service_s / case.disks] * case.disks + [cpu.demand_s]
    servers = [1] * case.disks + [cpu.cpus]
    result = closed_network(demands, population, think, servers=servers, method="exact")
    return result.throughput / case.ios


def knee(case: Case) -> float:
    """N* = X_max (Z + R_1) of the asymptotic bounds, R_1 the model's response at one user."""
    x_max = min(case.cpus / case.cpu_s, case.disks / (case.ios * case.service_s))
    return x_max / model_rate(case, 1)  # X(1) = 1 / (Z + R_1)


def simulate(case: Case, transactions: int, seed: int) -> tuple[float, float]:
    """Transaction rate of the fork-join network, and the half-width of its 99% confidence
    interval (batch means over `BATCHES` equal stretches of time), over `transactions`
    completions after a warm-up of 10% as many.

    Every server is FCFS and the events are handled in time order, so a job's departure is
    known when it arrives (Lindley: max(arrival, server free) + service; on c servers the
    earliest free one): the events are only think ends and round ends."""
    rng = random.Random(seed)
    uniform = rng.random
    log = math.log
    n, z, cpu, k, p, m, s = (
        case.users,
        case.think_s,
        case.cpu_s,
        case.ios,
        case.parallel,
        case.disks,
        case.service_s,
    )
    disk_free = [0.0] * m
    cpu_free = [0.0] * case.cpus  # a heap of the CPUs' free dates
    left = [0] * n
    events = [(-z * log(1.0 - uniform()), u, True) for u in range(n)]
    heapq.heapify(events)
    warmup = transactions // 10
    done = 0
    ends: list[float] = []
    pop, push, replace = heapq.heappop, heapq.heappush, heapq.heapreplace
    while len(ends) < transactions:
        t, u, thinking = pop(events)
        if thinking:  # think over: to the CPUs
            departs = max(t, cpu_free[0]) - cpu * log(1.0 - uniform())
            replace(cpu_free, departs)
            left[u] = k
            push(events, (departs, u, False))
            continue
        r = left[u]
        if r == 0:  # the last round is over: the transaction ends
            done += 1
            if done > warmup:
                ends.append(t)
            push(events, (t - z * log(1.0 - uniform()), u, True))
            continue
        batch = p if r > p else r
        left[u] = r - batch
        end = t
        for _ in range(batch):
            j = int(uniform() * m)
            f = disk_free[j]
            d = (f if f > t else t) - s * log(1.0 - uniform())
            disk_free[j] = d
            if d > end:
                end = d
        push(events, (end, u, False))
    dates = np.array(ends)
    edges = np.linspace(dates[0], dates[-1], BATCHES + 1)
    counts = np.histogram(dates, edges)[0]
    rates = counts / np.diff(edges)
    half = stats.t.ppf(0.995, BATCHES - 1) * rates.std(ddof=1) / math.sqrt(BATCHES)
    return float(rates.mean()), float(half)


TRANSACTIONS = 150_000
SEED = 7
SERVICE_S = 0.005
HOSTS = {  # cpus, cpu_s, think_s
    "A": (8, 0.002, 0.05),
    "B": (2, 0.005, 0.2),
    "C": (2, 0.010, 0.1),
}
LEVELS = {"1 user": 0.0, "0.5 N*": 0.5, "N*": 1.0, "3 N*": 3.0}
# (p, level): the model's error in % against the simulation, lowest and highest allowed
BANDS = {
    (2, "1 user"): (-15.0, -2.5),
    (2, "0.5 N*"): (-1.5, 3.5),
    (2, "N*"): (-1.5, 2.0),
    (2, "3 N*"): (-1.0, 1.0),
    (4, "1 user"): (0.0, 8.5),
    (4, "0.5 N*"): (-0.5, 7.0),
    (4, "N*"): (-1.0, 3.5),
    (4, "3 N*"): (-1.0, 1.0),
    (8, "1 user"): (0.0, 14.0),
    (8, "0.5 N*"): (0.5, 11.0),
    (8, "N*"): (-0.5, 5.5),
    (8, "3 N*"): (-2.0, 1.5),
}


def case_at(host: str, parallel: int, ios: int, disks: int, level: str) -> Case:
    cpus, cpu_s, think_s = HOSTS[host]
    one = Case(1, think_s, cpu_s, cpus, ios, parallel, disks, SERVICE_S)
    users = max(1, round(LEVELS[level] * knee(one)))
    return Case(users, think_s, cpu_s, cpus, ios, parallel, disks, SERVICE_S)


def error(case: Case) -> tuple[float, float]:
    """The model's relative error against the simulation, and the simulation's relative
    99% half-width."""
    simulated, half = simulate(case, TRANSACTIONS, SEED)
    return model_rate(case) / simulated - 1.0, half / simulated


@pytest.mark.simulation
@pytest.mark.parametrize(
    ("host", "ios", "disks", "level"),
    [
        ("A", 8, 4, "N*"),  # storage-bound
        ("B", 8, 16, "N*"),  # CPU and storage bounds equal
        ("C", 8, 16, "3 N*"),  # CPU-bound, at the bound
    ],
)
def test_one_io_at_a_time_is_exact(host: str, ios: int, disks: int, level: str) -> None:
    """p = 1: exact MVA of a product-form network, so equal within the simulation's error."""
    err, half = error(case_at(host, 1, ios, disks, level))
    assert half < 0.01
    assert abs(err) < 0.02


@pytest.mark.simulation
@pytest.mark.parametrize(
    ("host", "parallel", "ios", "disks", "level", "measured"),
    [
        ("A", 8, 16, 4, "0.5 N*", 10.10),  # the grid's worst: 8 at once on 4 servers
        ("A", 4, 16, 4, "0.5 N*", 6.27),
        ("C", 2, 16, 4, "0.5 N*", 2.75),
        ("C", 8, 8, 16, "N*", 4.55),  # CPU-bound knee
        ("B", 4, 8, 16, "N*", 0.64),  # both bounds equal
        ("A", 8, 16, 4, "3 N*", -1.05),  # heavy: slightly pessimistic
        ("A", 8, 16, 4, "1 user", 13.23),
        ("A", 2, 16, 16, "1 user", -14.19),  # known gap: 1.33 streams rounded to 1
    ],
)
def test_parallel_ios_stay_in_the_measured_band(
    host: str, parallel: int, ios: int, disks: int, level: str, measured: float
) -> None:
    """p > 1: the p / H_p streams approximation, within the band measured for its p and load
    (module docstring); `measured` is the grid's value at this point (300,000 transactions)."""
    low, high = BANDS[(parallel, level)]
    assert low < measured < high
    err, half = error(case_at(host, parallel, ios, disks, level))
    assert half < 0.01
    assert low <= 100 * err <= high, f"{100 * err:+.2f}% outside [{low}, {high}]%"


@pytest.mark.simulation
def test_the_simulation_is_the_textbook_loop_at_one_user_one_io() -> None:
    """The simulator itself: one user with one I/O at a time and one server is a cycle of
    Z + cpu + k S, so the rate is 1 / (Z + cpu + k S) within the simulation's error."""
    case = Case(1, 0.05, 0.002, 1, 8, 1, 1, SERVICE_S)
    simulated, half = simulate(case, 50_000, 3)
    expected = 1.0 / (0.05 + 0.002 + 8 * SERVICE_S)
    assert abs(simulated - expected) <= half
