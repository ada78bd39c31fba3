"""Bounds on the work a scenario can ask for; each is checked with a message naming the key."""

from __future__ import annotations

MAX_RANKS = 1024
"""More ranks than any DS8000 of this generation holds (8 DA pairs x 24); checked before the
ranks are expanded one by one, so that a small file cannot ask for millions of them."""

MAX_POPULATION = 131072
"""Bound on a closed load: a workload's `queue_depth` or `users`, an application's users (as
the I/O streams they keep in flight), all together; issue 16 asks for at least 100,000. The
closed solution holds O(N) memory and switches to the saddle-point approximation when the exact
method would take more than a quarter of a second (`queueing.closed_network`). Measured
(2026-11-25, CPU s and peak RSS of a whole process): the C3 pool (16 15K ranks) at a host queue
depth of 131,072, `diskmodel run` 7.1 s and 63 MB; the bundled example's Easy Tier pool at
131,072 with a 20-point curve, `predict` 4.5 s and 57 MB. What a population costs on a large
system is bounded by the work estimate (`analyses.budget`), which refuses a run it expects to
exceed a minute and names the population (it estimates that Easy Tier run at 129 s and refuses
it: the estimate is an upper bound). The bound was 4,096 while the solution built N x N arrays
(10,000 took 52 s and 3.2 GB), then 65,536. 131,072 is 1,536 drives at a queue depth of about
85 each."""


MAX_ALTERNATIVES = 64
"""Bound on `compare` alternatives and `growth` factors: each is a whole model solve."""

MAX_PATH_CHARS = 4096
"""A heat map's file name as written in the scenario (PATH_MAX on Linux)."""
