"""Bounds on the work a scenario can ask for; each is checked with a message naming the key."""

from __future__ import annotations

MAX_RANKS = 1024
"""More ranks than any DS8000 of this generation holds (8 DA pairs x 24); checked before the
ranks are expanded one by one, so that a small file cannot ask for millions of them."""

MAX_POPULATION = 65536
"""Bound on a closed load: a workload's `queue_depth` or `users`, an application's users (as
the I/O streams they keep in flight), all together. The closed solution now holds O(N) memory
and switches to the saddle-point approximation when the exact method would take more than a
quarter of a second (`queueing.closed_network`): a closed point at 65,536 customers on a small
pool takes 0.2 s, and a whole prediction at 60,000 on an Easy Tier pool 2.5 s. What a
population costs on a large system is bounded by the work estimate (`scenario.work`), which
refuses a run it expects to exceed a minute and names the population. (It was 4,096 while the
solution built N x N arrays: 10,000 took 52 s and 3.2 GB.) 65,536 is 1,536 drives at a queue
depth of about 40 each."""

MAX_ALTERNATIVES = 64
"""Bound on `compare` alternatives and `growth` factors: each is a whole model solve."""

MAX_PATH_CHARS = 4096
"""A heat map's file name as written in the scenario (PATH_MAX on Linux)."""
