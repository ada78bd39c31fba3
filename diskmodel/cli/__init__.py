"""The `diskmodel` command: parses arguments, calls the public API, prints. No modelling here.

One error boundary (`_Boundary.main`, what `main()` and typer's test runner both go through)
ends every command: a `UserError` prints one message on stderr and exits with its named code
(`diskmodel.errors.ExitCode`); a command-line mistake prints the usage and exits 2; Ctrl-C
prints "interrupted" and exits 130; standard output closed early (`| head`) exits 4; anything
else is a bug, reported as one (exit 1). Every string on its way to the terminal passes
through `diskmodel.terminal.printable`, so nothing from an input file can drive the terminal.

Conventions: `-` is standard output for `--json` and `--out`, and then the summary goes to
stderr; the format follows the flag, not the file name (`--out r.pdf` is refused); a name
ending in `/` or naming a folder writes the default file name inside it; `--quiet` prints
nothing but errors. Shell completion: `diskmodel --install-completion`.

The command group and its error boundary are in `cli.app`, the options the commands share in
`cli.options`, and each command family in a module of its own (`catalog`, `predicting`,
`logwrite`, `measured`, `sizing`), which registers its commands on `app` when imported. Every
module here imports only the facade (`diskmodel.api`), `diskmodel.errors` and
`diskmodel.terminal` of diskmodel (tests/test_layers.py).
"""

from __future__ import annotations

# The command modules register their commands on `app` as they are imported, and `--help`
# lists them in that order: the everyday commands first (check, run, compare), then logwrite,
# import and calibrate, size; `catalog` is a group, listed after the commands.
# isort: off
from diskmodel.cli import predicting, logwrite, measured, sizing, catalog

# isort: on
from diskmodel.cli.app import app, main
from diskmodel.cli.options import Intervals

__all__ = ["Intervals", "app", "catalog", "logwrite", "main", "measured", "predicting", "sizing"]
