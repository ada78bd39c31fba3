"""Bounds on the work a scenario can ask for; each is checked with a message naming the key."""

from __future__ import annotations

MAX_RANKS = 1024
"""More ranks than any DS8000 of this generation holds (8 DA pairs x 24); checked before the
ranks are expanded one by one, so that a small file cannot ask for millions of them."""

MAX_POPULATION = 4096
"""Bound on a closed workload's `queue_depth` or `users`. The exact closed solution costs time
and memory in the square of the population: fuzzing found 10,000 taking 52 s and 3.2 GB on a
four-rank pool, and the old bound of 100,000 never finishing; 4,096 takes about 9 s. A host
queue depth in the thousands is already far past any DS8000's saturation point."""

MAX_ALTERNATIVES = 64
"""Bound on `compare` alternatives and `growth` factors: each is a whole model solve."""

MAX_PATH_CHARS = 4096
"""A heat map's file name as written in the scenario (PATH_MAX on Linux)."""
