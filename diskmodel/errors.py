"""The errors a user can cause, and the exit code each ends the command with.

Everything a planner can get wrong (a YAML typo, an unknown drive, an impossible value, an
output path that is not ours to overwrite) raises a subclass of `UserError`; the CLI's single
error boundary prints its message and exits with its code. Any other exception is a bug.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Named exit codes of the `diskmodel` command (documented in the README)."""

    OK = 0
    INTERNAL = 1  # a bug in diskmodel: please report it
    USAGE = 2  # the command line itself is wrong (typer's own code)
    INVALID_INPUT = 3  # a scenario or data file is missing, malformed or inconsistent
    OUTPUT_REFUSED = 4  # an output file could not or should not be written
    CALIBRATION_FAILED = 5  # calibrate --strict: the calibration failed its quality gate


class UserError(Exception):
    """A mistake the user can fix; its message is complete and shown as is."""

    exit_code: ExitCode = ExitCode.INVALID_INPUT


class InputError(UserError):
    """An input file (scenario, heat map, catalog name) is missing, malformed or inconsistent."""


class OutputError(UserError):
    """An output file could not be written, or would overwrite something that is not ours."""

    exit_code = ExitCode.OUTPUT_REFUSED
