"""One piece of a prediction worked out in a forked process beside the caller's own, on the
machine's other core (`diskmodel run`: the band over the catalog's estimates while the
configurations are predicted, issues 28 and 29).

Why a process: the model is Python and numpy on small arrays, so a thread would hold the GIL
as the caller does and gain nothing. A fork starts in about a millisecond with everything the
caller has loaded, runs the same code on the same inputs, and sends back the result (plain
frozen data, pickled), so the answer is the one the caller would have computed, to the bit.

Anything the fork cannot do (no fork on this platform, one core, a process that will not
start or dies, a result that cannot be sent) leaves the work to the caller, which does it
itself when it asks for the result, raising there whatever the work raises. Nothing here is
needed for a correct answer.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

T = TypeVar("T")


class Beside(Generic[T]):
    """`work()` started in a forked process at once; `result()` its value (module docstring)."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._process: multiprocessing.process.BaseProcess | None = None
        self._answer: Connection | None = None
        if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return
        # (multiprocessing flushes the caller's standard streams before it forks, so output
        # written before is not written again by the fork: tested.)
        context = multiprocessing.get_context("fork")
        answer, send = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(work, send), daemon=True)
        try:
            process.start()
        except OSError:
            answer.close()
            return
        finally:
            send.close()
        self._process, self._answer = process, answer

    def result(self) -> T:
        """The work's value: the fork's, or, where it gave none, the work done here."""
        process, answer = self._process, self._answer
        self._process = self._answer = None
        if process is not None and answer is not None:
            try:
                done, value = answer.recv()
            except (EOFError, OSError):  # the process died without answering
                done, value = False, None
            finally:
                answer.close()
                process.join()
            if done:
                return value
        return self._work()


YIELD = 10
"""How far the fork lowers its own scheduling priority (`os.nice`). Its work is the caller's,
shared out by `Tickets`: what the fork does not get to, the caller takes when it is done, so
the fork need not compete with the caller or with the processes the caller waits for (in
`diskmodel run`, the charts' worker, whose charts are the last thing the run waits for): on
two cores it works in the time they leave. Measured on the Global Mirror week, 15 pairs each
against no yield (farm-bench, quiet machine): 5 -> 0.98x wall, 10 -> 0.97x, 19 -> 1.00x."""


def _serve(work: Callable[[], object], send: Connection) -> None:
    """The forked process: the work's value, or word that there is none (the caller then does
    the work itself and raises what it raises there)."""
    with contextlib.suppress(OSError):  # a platform without priorities: the same work
        os.nice(YIELD)
    try:
        value = work()
    except BaseException:  # the caller does the work again and raises it there
        send.send((False, None))
        return
    try:
        send.send((True, value))
    except Exception:  # a value that cannot be sent: the caller does the work
        send.send((False, None))


class Tickets:
    """The numbers 0 .. n-1, each handed out once, to this process and to the forks it makes
    after (a counter in shared memory): the pieces of one piece of work, taken by whichever
    process is free next. Iterate to take them until none is left."""

    def __init__(self, n: int) -> None:
        self._n = n
        self._next = multiprocessing.Value("l", 0)  # with its own lock, inherited by a fork

    def __iter__(self) -> Iterator[int]:
        while True:
            with self._next.get_lock():
                taken = self._next.value
                self._next.value = taken + 1
            if taken >= self._n:
                return
            yield taken

    @property
    def left(self) -> bool:
        """Whether a number is still to be handed out (already taken, perhaps, when read)."""
        return bool(self._next.value < self._n)
