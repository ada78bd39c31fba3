"""What is worked out once and kept: `cached_property`, `functools.cached_property` without
its lock, and `kept_by_identity`, a value kept by the identity of the objects it was made
from.

On Python 3.11 `functools.cached_property` takes a lock (an `RLock` shared by every instance
of the class) on each instance's first read, to compute a value once across threads; Python
3.12 removed the lock (gh-87634) as a bottleneck. The values cached here are pure functions
of frozen records, so two threads that both compute one get the same value: without the lock
the first read costs a fifth as much, and a sizing search makes hundreds of such reads.
Like `functools.cached_property`, the value is stored in the instance's `__dict__`, which
the attribute lookup finds before this (non-data) descriptor, so later reads are plain."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")
V = TypeVar("V")


class cached_property(Generic[T]):  # noqa: N801 (named as the functools one it replaces)
    """A property computed on its first read and kept in the instance's `__dict__`."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.attrname = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.attrname = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_property[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | cached_property[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value


def kept_by_identity(
    store: dict[tuple[object, ...], tuple[tuple[object, ...], V]],
    held: tuple[object, ...],
    rest: tuple[object, ...],
    limit: int,
    make: Callable[[], V],
) -> V:
    """`make()`, kept in `store` by the identity of the objects `held` and the values `rest`
    (made once for the same objects: a sizing search's configurations share their sections
    and records). The objects are held beside the value, so that no identity is reused while
    it is kept; the store is emptied when it holds `limit`."""
    key = (*map(id, held), *rest)
    kept = store.get(key)
    if kept is not None and all(map(operator.is_, kept[0], held)):
        return kept[1]
    made = make()
    if len(store) >= limit:
        store.clear()
    store[key] = (held, made)
    return made
