"""`model.kept.Kept` from several threads at once (a Dask worker with threads runs the sizing
search's tasks in threads of one process): no bookkeeping error, and every value found is
its key's."""

from __future__ import annotations

import random
import sys
import threading

from diskmodel.model.kept import Kept


class _Bucket:
    """A bucket hashed and compared in Python, as a bucket of records is: a thread may be
    switched out inside the store's look-ups, where another can forget the bucket."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __hash__(self) -> int:
        return hash(self.n)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Bucket) and other.n == self.n


def test_threads_asking_and_forgetting_at_once_get_their_keys_values() -> None:
    """Five buckets asked at random where three are kept: found, moved last and forgotten by
    four threads at once. Without the lock this fails in every run: a thread finds a bucket
    that another forgets before it moves it last (KeyError from `move_to_end`), as a search
    on a two-thread Dask cluster once failed in CI."""
    kept: Kept[tuple[int, int]] = Kept(buckets=3, per_bucket=2)
    buckets = [_Bucket(n) for n in range(5)]
    errors: list[BaseException] = []
    wrong: list[tuple[int, int, tuple[int, int]]] = []

    def ask(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(20_000):
                bucket, key = rng.randrange(5), rng.randrange(3)
                value = kept.get(buckets[bucket], key, lambda b=bucket, k=key: (b, k))
                if value != (bucket, key):
                    wrong.append((bucket, key, value))
        except BaseException as exc:  # any error in a thread is the finding
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two steps, as on a busy worker
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert wrong == []
