"""Queueing core: pure numerics (numpy/scipy) for single stations and closed/open networks.

This package imports nothing from the rest of diskmodel; the layers above turn hardware into
stations and demands and call these functions. Every function broadcasts over the load and
returns one small frozen result dataclass of arrays.

Textbook symbols, used only inside this package (the one place they are mapped):

=========  =====================================================================
lam        arrival rate (customers per time unit), λ
s          mean service time of one visit, E[S]
s2         second moment of the service time, E[S^2]
cs2        squared coefficient of variation of service time, Var[S] / s^2
c          number of identical servers at a station
a          offered load in Erlangs, lam * s
rho        per-server utilisation, lam * s / c
D, D_k     service demand of station k: visits x mean service time
N          closed population (customers, e.g. outstanding I/Os)
Z          think time: delay outside the stations, excluded from response time
X          throughput (customers per time unit)
R          response time (sum of residence times); R_k residence time at station k
Q, Q_k     mean number of customers (queue length, queued plus in service)
U, U_k     utilisation
alpha      load-dependent service-rate multiplier, alpha[k, n-1] at n customers
K          number of stations;  R (as a count) the number of classes
=========  =====================================================================

All times are in one unit chosen by the caller (the model uses seconds).

The storage model uses `station` (M/M/1, M/M/c, load-dependent stations, Erlang C) and
`closed_network` (log-space convolution, saddle point, exact MVA for small networks). The rest
is the package's public library API, tested in tests/queueing against sympy, textbook values,
simulation and line-solver, though the model does not call it: exact and load-dependent MVA
(`closed`), multi-class MVA (exact in `multiclass`, Bard-Schweitzer in `schweitzer`, Linearizer
in `linearizer`), Seidmann's multi-server reduction (`multiserver`), bounds (`bounds`) and open
and mixed networks (`open_network`).
"""

from diskmodel.queueing.bounds import BoundsResult, bounds
from diskmodel.queueing.closed import (
    ClosedResult,
    marginal_probabilities,
    multiserver_alpha,
    mva,
    mva_load_dependent,
)
from diskmodel.queueing.closed_network import (
    ClosedNetworkResult,
    closed_network,
    queue_length_distribution,
)
from diskmodel.queueing.convolution import (
    StationKernel,
    log_convolve,
    log_convolve_power,
    log_convolve_station,
    log_station_factor,
)
from diskmodel.queueing.linearizer import linearizer
from diskmodel.queueing.multiclass import MulticlassResult, mva_multiclass
from diskmodel.queueing.multiserver import seidmann, seidmann_transform
from diskmodel.queueing.open_network import MixedResult, OpenResult, mixed_network, open_network
from diskmodel.queueing.schweitzer import schweitzer
from diskmodel.queueing.station import (
    StationResult,
    delay,
    erlang_b,
    erlang_c,
    mg1,
    mgc_allen_cunneen,
    mm1,
    mmc,
)

__all__ = [
    "BoundsResult",
    "ClosedNetworkResult",
    "ClosedResult",
    "MixedResult",
    "MulticlassResult",
    "OpenResult",
    "StationKernel",
    "StationResult",
    "bounds",
    "closed_network",
    "delay",
    "erlang_b",
    "erlang_c",
    "linearizer",
    "log_convolve",
    "log_convolve_power",
    "log_convolve_station",
    "log_station_factor",
    "marginal_probabilities",
    "mg1",
    "mgc_allen_cunneen",
    "mixed_network",
    "mm1",
    "mmc",
    "multiserver_alpha",
    "mva",
    "mva_load_dependent",
    "mva_multiclass",
    "open_network",
    "queue_length_distribution",
    "schweitzer",
    "seidmann",
    "seidmann_transform",
]
