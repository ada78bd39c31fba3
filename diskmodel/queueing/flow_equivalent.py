"""Flow-equivalent station of identical load-dependent members (Norton's theorem).

m identical members, each with rate multipliers alpha(1..n0) (held at alpha(n0) beyond), that
share a demand equally are, in a product-form network, exactly one station whose factor is
the m-fold convolution f_m = f * ... * f of one member's f(n) = 1 / prod_{i<=n} alpha(i)
(member demand 1: scaling the demand scales f_m(n) by a power of n, which cancels in every
ratio below). Source: Chandy, Herzog & Woo, "Parametric analysis of queuing networks",
IBM J. Res. Dev. 19(1), 1975.

`closed_network(..., members=...)` solves a network holding such groups without forming f_m;
this module gives the group on its own, for a caller that needs its rate curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray, sealed
from diskmodel.queueing._network_spec import Unit
from diskmodel.queueing.closed_network import _Applier


@dataclass(frozen=True, slots=True)
class FlowEquivalent:
    """A group of `members` identical members seen as one station, for n = 0..N customers.

    alpha: [N] the group's rate multiplier alpha_m(n), n = 1..N: members f_m(n-1) / f_m(n)
        (1 at n = 1, rising to members x max alpha).
    member_idle: [N + 1] P(a given member holds no customer | the group holds n):
        f_(m-1)(n) / f_m(n) (1 at n = 0).
    log_factor: [N + 1] log f_m(n) at member demand 1.
    """

    alpha: FloatArray
    member_idle: FloatArray
    log_factor: FloatArray


def flow_equivalent(alpha: ArrayLike | None, members: int, N: int) -> FlowEquivalent:
    """The flow-equivalent station of `members` identical members (module docstring).

    Exact (log space). Cost the cheaper of members x N x n0 (one member at a time, each a
    convolution with a geometric-tailed factor) and N^2 log2(members) (binary powering),
    memory O(N). Replaces an N x N convolution power.
    """
    if int(members) != members or members < 1:
        raise ValueError(f"members must be an integer >= 1, got {members!r}")
    if int(N) != N or N < 1:
        raise ValueError(f"population N must be an integer >= 1, got {N!r}")
    a = np.ones(1) if alpha is None else np.asarray(alpha, dtype=np.float64).reshape(-1)
    if a.size == 0 or np.any(~np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("alpha (service-rate multipliers) must be non-empty, finite and > 0")
    m = int(members)
    L = int(N) + 1
    unit = Unit(station=0, members=m, demand=1.0, alpha=a[: int(N)], multiserver=False)
    apply = _Applier(L)
    delta = np.full(L, -np.inf)
    delta[0] = 0.0
    log_rest = apply(delta, unit, m - 1)
    log_all = apply(log_rest, unit, 1)
    return FlowEquivalent(
        alpha=sealed(m * np.exp(log_all[:-1] - log_all[1:])),
        member_idle=sealed(np.minimum(1.0, np.exp(log_rest - log_all))),
        log_factor=sealed(log_all),
    )
