"""The host above the storage: its CPUs and how many I/Os one transaction keeps in flight.

A transaction that issues `p` I/Os at once and waits for all of them (a fork-join) does not
keep `p` in flight for the whole round: the round lasts as long as its slowest I/O. With
response times exponential and independent (the product-form assumption of the rest of the
model), one I/O takes R on average and the slowest of p takes R H_p (H_p = 1 + 1/2 + ... + 1/p,
the expected maximum of p exponentials), so over the round the transaction holds
p R / (R H_p) = p / H_p I/Os on average. That is the number of concurrent streams
(`concurrent_streams`) the closed model gives each user (docs/model.md, "Application").
"""

from __future__ import annotations

import math


def harmonic(p: int) -> float:
    """H_p = 1 + 1/2 + ... + 1/p: the expected maximum of p unit-mean exponentials."""
    return math.fsum(1.0 / i for i in range(1, p + 1))


def concurrent_streams(parallel_ios: int) -> float:
    """Mean I/Os in flight while a transaction runs a round of `parallel_ios` I/Os at once:
    p / H_p (1 for one at a time; 1.33 for 2, 1.92 for 4, 2.94 for 8)."""
    return parallel_ios / harmonic(parallel_ios)


def customers(users: int, parallel_ios: int) -> int:
    """Customers of the closed network for `users` users: one stream each, or p / H_p streams
    each rounded over all users (at least one)."""
    return max(1, round(users * concurrent_streams(parallel_ios)))
