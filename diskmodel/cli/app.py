"""The command group and its one error boundary: `app` (typer), `main` (the console script),
`say` and `write_stdout` (everything printed goes through the sanitiser), and `_Boundary`,
which turns a user error, a usage mistake, Ctrl-C, a closed pipe or a bug into one message and
its exit code (`diskmodel.errors.ExitCode`). The commands are in the sibling modules."""

from __future__ import annotations

import gc
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperArgument, TyperGroup

from diskmodel import __version__
from diskmodel.errors import ExitCode, UserError
from diskmodel.terminal import printable, shown

if TYPE_CHECKING:
    pass


INTERRUPTED = 130
"""Exit code after Ctrl-C (SIGINT): 128 + 2, as shells report it."""


def say(text: str, *, err: bool = False) -> None:
    """Print `text` for a person: through the sanitiser, never raw (a table drawn for the
    terminal was made printable piece by piece before its styling was added: `shown`)."""
    typer.echo(shown(text), err=err)


def write_stdout(text: str) -> None:
    """A result written to standard output (`-`): as is into a pipe, sanitised on a terminal."""
    stream = sys.stdout
    stream.write(printable(text) if stream.isatty() else text)
    stream.flush()


class _Boundary(TyperGroup):
    """The command group whose `main` is the one error boundary of the command line."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        name = prog_name or "diskmodel"
        if argv[:1] == ["run"]:
            _start_charts()
        _named_arguments(self)
        self._main_shell_completion(extra, name, complete_var)  # exits when completing
        code = _guarded(self, name, argv, extra)
        if standalone_mode:
            sys.exit(code)
        return code


def _start_charts() -> None:
    """Start the charts' worker for `run`, which always writes its HTML report: as soon as
    the command is named, before typer parses its options (the parse imports pydantic and
    builds an adapter per option, 0.06-0.08 s), so that the charts' runtime (0.3 s of CPU)
    starts on the core the command line leaves idle until the prediction begins. `run` asks
    again once parsed (a second start does nothing); a command that stops on bad input ends
    the worker on its way out (`chart_worker.stop`)."""
    from diskmodel import api

    api.warm_up_charts()


class _NamedArgument(TyperArgument):
    """An argument whose help shows its name (SCENARIO), not also typer's type label
    (`<file>`, `<list[Path]>`): the help says what the file is."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.metavar else super().display_type_rich(ctx)


def _named_arguments(group: Any) -> None:
    """Every argument with a metavar, in every command under `group`, shown by its name."""
    for command in getattr(group, "commands", {}).values():
        _named_arguments(command)
        for param in getattr(command, "params", ()):
            if type(param) is TyperArgument and param.metavar:
                param.__class__ = _NamedArgument


def _guarded(group: TyperGroup, name: str, argv: list[str], extra: dict[str, Any]) -> int:
    """Run the command line; return its exit code, whatever happens inside."""
    try:
        with group.make_context(name, argv, **extra) as ctx:
            group.invoke(ctx)
        return ExitCode.OK
    except UserError as exc:
        say(f"diskmodel: {exc}", err=True)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        say("\ndiskmodel: interrupted; no output file was written or changed", err=True)
        return INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        say("diskmodel: standard output was closed before the result was written", err=True)
        return int(ExitCode.OUTPUT_REFUSED)
    except (typer.Exit, typer.Abort) as exc:
        return int(getattr(exc, "exit_code", 1))
    except Exception as exc:  # the boundary: a usage error, else a bug
        if hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int):
            _usage_error(exc)
            return int(exc.exit_code)  # type: ignore[attr-defined]
        say(traceback.format_exc().rstrip(), err=True)
        say(f"diskmodel {__version__}: internal error (a bug); please report it", err=True)
        return int(ExitCode.INTERNAL)


def _usage_error(exc: Any) -> None:
    """A command-line mistake (the parser's), printed with the usage line, sanitised."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        say(ctx.get_usage(), err=True)
        say(f"Try '{ctx.command_path} --help' for help.", err=True)
    say(f"diskmodel: {exc.format_message()}", err=True)


def _silence_stdout() -> None:
    """After a broken pipe, send what is left for stdout to /dev/null (no second error)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


app = typer.Typer(
    name="diskmodel",
    cls=_Boundary,
    help="Predict response time, utilisation and bottlenecks of IBM DS8700/DS8800 storage.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
catalog_app = typer.Typer(help="Look up the hardware diskmodel knows.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")


def _version(value: bool) -> None:
    if value:
        say(f"diskmodel {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="print the version"),
    ] = False,
) -> None:
    """diskmodel: analytical sizing of enterprise disk storage."""


def main() -> None:
    """Console-script entry point: the command line through its one error boundary."""
    # A run makes a great many short-lived objects and few reference cycles; collecting the
    # youngest generation every 700 allocations (Python's default) took 4-6% of a run's CPU
    # (0.04-0.07 s of 0.75-1.2 s, same peak memory). mypy's command line sets the same
    # thresholds for the same reason. Only the command line: a library leaves its host's alone.
    gc.set_threshold(200_000, 30, 30)
    # numpy's OpenBLAS starts a thread per core when numpy is imported (0.05-0.07 s of CPU,
    # on the path of every command: the other core is busy with the charts' worker then).
    # The model's arrays have tens of elements, too few for BLAS to share a product out, so
    # the threads never work: one is asked for unless the user chose. Numbers do not change.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        app()
    finally:
        # On its way out the interpreter runs the cycle collector over every object still
        # alive (the catalog, the model's caches, numpy's and pydantic's modules): 0.1 s of a
        # 1 s run, to free memory the process is about to give back. The collector skips
        # frozen objects; they are still freed by reference counting, the standard streams
        # are still flushed and atexit handlers still run (every file diskmodel writes is
        # closed before this), only reference cycles are left to the operating system.
        gc.freeze()
