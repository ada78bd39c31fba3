"""`size --scheduler` without a healthy scheduler (issue 33 item 2): a value that is not an
address, a server that answers garbage, one that stays silent, a scheduler with no workers,
results that do not come: each one message, no traceback, every wait bounded by a deadline
(set small here: the waits are bounded by construction, not timed)."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from diskmodel.analyses import cluster
from diskmodel.analyses.cluster import (
    SchedulerAddressError,
    SchedulerError,
    gathered,
    probe,
    scheduler_address,
)
from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.cli import app
from diskmodel.errors import ExitCode
from tests.support.budget import fuzz_settings
from tests.support.dask import local_cluster

from ..conftest import ROOT

pytest.importorskip("distributed")

SHIPPED = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
runner = CliRunner()


@contextlib.contextmanager
def fake_server(answer: bytes = b"", close: bool = True) -> Iterator[str]:
    """A TCP server on a free local port that sends `answer` to each connection and then
    closes it (or, `close=False`, keeps it open and says nothing more); yields its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.05)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            with contextlib.suppress(OSError):
                conn.sendall(answer)
            if close:
                conn.close()
            else:
                held.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


# --------------------------------------------------------------------------- the address


@pytest.mark.parametrize(
    ("given", "address"),
    [
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("tls://sched.example.com:8786", "tls://sched.example.com:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        ("scheduler-1:1", "tcp://scheduler-1:1"),
    ],
)
def test_an_address_is_read_as_dask_is_given_it(given: str, address: str) -> None:
    assert scheduler_address(given) == address


@pytest.mark.parametrize(
    "given",
    [
        "not an address",
        "tcp://host",
        "host:0",
        "host:65536",
        "tcp://host:8786/path",
        "udp://host:8786",
        "inproc://192.0.2.2/1/2",
        "tcp://[not-ipv6]:8786",
        "tcp://-host:8786",
        "tcp://ho st:8786",
        "tcp://host:8786\n",
        "\x1b[2Jtcp://host:8786",
        "",
        "x" * 10_000 + ":1",
    ],
)
def test_a_value_that_is_not_an_address_is_a_command_line_mistake(given: str) -> None:
    """Found: `--scheduler 'not an address'` ended in a ValueError traceback from Dask."""
    with pytest.raises(SchedulerAddressError) as refused:
        scheduler_address(given)
    assert refused.value.exit_code == ExitCode.USAGE
    assert "give tcp://HOST:PORT" in str(refused.value)
    assert len(str(refused.value)) < 300


def test_the_command_refuses_a_bad_address_in_one_message_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import diskmodel.analyses.size as size_module

    monkeypatch.setattr(size_module, "checked", _no_work)
    result = runner.invoke(app, ["size", str(SHIPPED), "--scheduler", "not an address"])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("diskmodel: --scheduler: 'not an address' is not")
    assert "Traceback" not in result.output


def _no_work(*_: object) -> None:
    raise AssertionError("a configuration was built before the address was checked")


# --------------------------------------------------------------------------- the server


def test_a_server_that_answers_garbage_is_one_message() -> None:
    """Found: a server answering garbage made Dask read its first 8 bytes as a frame length
    and try to allocate 6.46 EiB (a ValueError traceback)."""
    with fake_server(b"\xff" * 64) as address:
        with pytest.raises(SchedulerError, match="is not a Dask scheduler"):
            probe(address, timeout=5)
        result = runner.invoke(app, ["size", str(SHIPPED), "--scheduler", address])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert result.output.count("\n") == 1, result.output  # nothing logged, no traceback
    assert "what answered there is not a Dask scheduler" in result.output


def test_a_silent_server_is_given_up_on_at_the_deadline() -> None:
    """Found: a server that accepts and says nothing kept `size` waiting with no end (past
    60 s; the docs said 10 s). Every wait of the probe shares one deadline."""
    with fake_server(close=False) as address, pytest.raises(SchedulerError) as refused:
        probe(address, timeout=0.5)
    assert str(refused.value) == (
        f"--scheduler {address}: no Dask scheduler answered within 0.5 s (is it running, and "
        "is this its address and port?)"
    )


def test_a_half_frame_then_silence_is_given_up_on_at_the_deadline() -> None:
    with (
        fake_server(struct.pack("<Q", 1 << 20) + b"\x00" * 10, close=False) as address,
        pytest.raises(SchedulerError, match=r"no Dask scheduler answered within 0\.5 s"),
    ):
        probe(address, timeout=0.5)


def test_nothing_listening_is_one_message() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(SchedulerError, match="cannot connect"):
        probe(f"tcp://127.0.0.1:{port}", timeout=0.5)


def test_a_scheduler_with_no_workers_is_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found: a scheduler with no workers gave a TimeoutError traceback (from scattering the
    search's context to no one)."""
    with local_cluster(0) as empty:
        with pytest.raises(SchedulerError, match="the scheduler has no workers; start some"):
            probe(empty.scheduler_address)
        result = runner.invoke(app, ["size", str(SHIPPED), "--scheduler", empty.scheduler_address])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "has no workers" in result.output
    assert "Traceback" not in result.output


def test_a_scheduler_with_workers_is_probed_and_used() -> None:
    with local_cluster(1) as one:
        assert probe(one.scheduler_address) == 1


# --------------------------------------------------------------------------- the results


class _Late:
    """A future whose result never comes (it raises the timeout Dask raises)."""

    def result(self, timeout: float | None = None) -> Any:
        raise TimeoutError


class _Failed:
    def result(self, timeout: float | None = None) -> Any:
        raise ModuleNotFoundError("No module named 'diskmodel'")


class _Done:
    def result(self, timeout: float | None = None) -> Any:
        assert timeout is not None
        assert timeout > 0
        return "done"


def test_results_come_by_one_deadline_or_the_search_ends_in_one_message() -> None:
    later = time.monotonic() + 3600
    assert list(gathered("tcp://h:1", [_Done(), _Done()], later)) == ["done", "done"]
    with pytest.raises(SchedulerError, match="did not return the search's results within"):
        list(gathered("tcp://h:1", [_Done(), _Late()], later))
    with pytest.raises(SchedulerError, match="did not return"):
        list(gathered("tcp://h:1", [_Done()], time.monotonic() - 1))
    with pytest.raises(SchedulerError, match=r"the search failed on the cluster.*diskmodel"):
        list(gathered("tcp://h:1", [_Failed()], later))


def test_the_search_on_a_cluster_is_held_to_the_results_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no time left for results, a search on a healthy cluster ends in the message."""
    monkeypatch.setattr(cluster, "DASK_RESULTS_TIMEOUT_S", -1.0)
    with (
        local_cluster(1) as one,
        pytest.raises(SchedulerError, match="did not return the search's results"),
    ):
        size_scenario(
            load_scenario(SHIPPED),
            load_catalog(),
            SHIPPED.parent,
            scheduler=one.scheduler_address,
        )


# --------------------------------------------------------------------------- fuzz


HOSTS = st.one_of(
    st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?(\.[a-z0-9]{1,8}){0,3}", fullmatch=True),
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(lambda a: f"[{a}]"),
    st.text(max_size=20),
)
ADDRESSES = st.one_of(
    st.builds(
        lambda scheme, host, port: f"{scheme}{host}:{port}",
        st.sampled_from(["", "tcp://", "tls://", "udp://", "TCP://", "inproc://", "://"]),
        HOSTS,
        st.integers(-1, 70_000).map(str) | st.text(max_size=6),
    ),
    st.text(max_size=60),
)


@pytest.mark.fuzz
@fuzz_settings(200)
@given(text=ADDRESSES)
def test_any_scheduler_value_is_an_address_or_one_usage_message(text: str) -> None:
    outcome = _address_or_refusal(text)
    if isinstance(outcome, SchedulerAddressError):
        assert outcome.exit_code == ExitCode.USAGE
        assert str(outcome).startswith("--scheduler: ")
        return
    scheme, rest = outcome.split("://")
    host, port = rest.rsplit(":", 1)
    assert scheme in cluster.SCHEMES
    assert 1 <= int(port) <= 65535
    assert host
    assert not any(c.isspace() or not c.isprintable() for c in outcome)
    assert scheduler_address(outcome) == outcome


def _address_or_refusal(text: str) -> str | SchedulerAddressError:
    try:
        return scheduler_address(text)
    except SchedulerAddressError as exc:
        return exc


ANSWERS = st.one_of(
    st.binary(max_size=64),
    st.builds(
        lambda n, tail: struct.pack("<Q", n) + tail,
        st.integers(0, 2**64 - 1),
        st.binary(max_size=32),
    ),
    st.sampled_from([b"HTTP/1.1 400 Bad Request\r\n\r\n", b"SSH-2.0-OpenSSH_9.6\r\n"]),
)


@pytest.mark.fuzz
@fuzz_settings(30)
@given(answer=ANSWERS, close=st.booleans())
def test_any_server_that_is_not_a_scheduler_is_one_message(answer: bytes, close: bool) -> None:
    with fake_server(answer, close) as address, pytest.raises(SchedulerError) as refused:
        probe(address, timeout=0.3)
    assert str(refused.value).startswith(f"--scheduler {address}: ")
