"""`cached_property`: `functools.cached_property` without its lock.

On Python 3.11 `functools.cached_property` takes a lock (an `RLock` shared by every instance
of the class) on each instance's first read, to compute a value once across threads; Python
3.12 removed the lock (gh-87634) as a bottleneck. The values cached here are pure functions
of frozen records, so two threads that both compute one get the same value: without the lock
the first read costs a fifth as much, and a sizing search makes hundreds of such reads.
Like `functools.cached_property`, the value is stored in the instance's `__dict__`, which
the attribute lookup finds before this (non-data) descriptor, so later reads are plain."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


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
