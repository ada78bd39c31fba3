"""While a search runs, young garbage collections come every `SEARCH_THRESHOLD` net
allocations; after it, the process's threshold is what it was, however searches nest or
overlap in threads, and a threshold something else set meanwhile is left alone."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from diskmodel.analyses import collections_paced
from diskmodel.analyses.collections_paced import SEARCH_THRESHOLD, paced


@pytest.fixture(autouse=True)
def _threshold_kept() -> Iterator[None]:
    found = gc.get_threshold()
    yield
    gc.set_threshold(*found)


def test_raised_while_a_search_runs_and_put_back() -> None:
    gc.set_threshold(700, 10, 10)
    with paced():
        assert gc.get_threshold() == (SEARCH_THRESHOLD, 10, 10)
        with paced():  # a search inside another (a band of sizings, say)
            assert gc.get_threshold() == (SEARCH_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (SEARCH_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_is_kept() -> None:
    gc.set_threshold(50_000, 5, 5)
    with paced():
        assert gc.get_threshold() == (50_000, 5, 5)
    assert gc.get_threshold() == (50_000, 5, 5)


def test_put_back_even_when_the_search_fails() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError), paced():
        raise RuntimeError("a search that fails")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_threshold_set_meanwhile_is_left_alone() -> None:
    gc.set_threshold(700, 10, 10)
    with paced():
        gc.set_threshold(1234, 10, 10)
    assert gc.get_threshold() == (1234, 10, 10)


def test_overlapping_searches_in_threads_put_back_the_first_threshold() -> None:
    gc.set_threshold(700, 10, 10)
    started, release = threading.Barrier(3), threading.Event()
    inside: list[tuple[int, ...]] = []

    def search() -> None:
        with paced():
            started.wait()
            release.wait()
            inside.append(gc.get_threshold())

    threads = [threading.Thread(target=search) for _ in range(2)]
    for t in threads:
        t.start()
    started.wait()  # both searches are running
    release.set()
    for t in threads:
        t.join()
    assert inside == [(SEARCH_THRESHOLD, 10, 10)] * 2
    assert gc.get_threshold() == (700, 10, 10)


def test_the_heap_is_kept_while_searches_run_and_glibcs_defaults_set_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # glibc's mallopt (where there is one) is asked to keep freed memory in the heap while
    # the first search runs, and for its defaults once the last ends.
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(
        collections_paced, "_MALLOPT", lambda option, value: calls.append((option, value)) or 1
    )
    search = [(-1, collections_paced.SEARCH_TRIM_BYTES), (-3, collections_paced.SEARCH_MMAP_BYTES)]
    default = [
        (-1, collections_paced.GLIBC_DEFAULT_BYTES),
        (-3, collections_paced.GLIBC_DEFAULT_BYTES),
    ]
    with paced():
        assert calls == search
        with paced():
            assert calls == search
    assert calls == search + default


def test_a_search_runs_where_there_is_no_mallopt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collections_paced, "_MALLOPT", None)
    gc.set_threshold(700, 10, 10)
    with paced():
        assert gc.get_threshold() == (SEARCH_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
