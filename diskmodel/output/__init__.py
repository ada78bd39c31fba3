"""Writing result files safely: one path for every file a command writes.

The rules (docs/SECURITY.md, "What it writes"):

- `-` is standard output. Otherwise the name ends in the format's extension or in none
  (`--out r.pdf` is refused: the format follows the flag); a name ending in `/`, or naming a
  folder, means that folder with the default file name.
- An existing path is replaced only if it is a regular file, not a symbolic link, and either
  carries diskmodel's generator mark in its own head (an earlier report) or `--force` was
  given. A link, a device, a pipe, a socket or a folder is never replaced, not even with
  `--force`: a link to `/proc/self/fd/1` or `/dev/stdout` would otherwise be replaced by a
  file, or the file it points to judged instead of the link. The mark is read through a
  descriptor opened with `O_NOFOLLOW | O_NONBLOCK`, and only from a regular file.
- All files of one command are checked before any is written, two names for one file
  (`--out X --json X`, `r/x.html` and `./r/x.html`) are refused, each file is written to a
  temporary file beside its target and then moved into place: a new file by `link` (which
  fails if anything has appeared there meanwhile), an existing one by `rename` only if the
  path still holds the very file that was checked. Both files or neither: if a later step
  fails, the files already put in place are taken back, a replaced one by the earlier file
  (kept by a hard link until the command's files are all in place).
- Runs writing to one folder take turns: the folders of a command's files are locked
  (`flock` on the folder itself, no lock file) while every target is checked again to be
  the file first checked and the files are moved into place. Concurrent runs to one output
  once left one run's JSON beside another's HTML (a run checked both, another replaced the
  HTML, and the first replaced the JSON before finding the HTML changed: issue 33 item 6).
- `--csv DIR` writes one `<table>.csv` per table into the folder DIR (made if absent); each
  file's first line `# diskmodel <version>: <caption>` is its mark, and so is a calibrated
  scenario's and a fitted catalog file's (`calibrate --out`).

One module a job: `names` (what each flag names), `mark` (the generator mark), `checks`
(before anything is written), `writing` (staged, locked, moved into place or none).
"""

from __future__ import annotations

from diskmodel.output.checks import check_output_path, check_outputs
from diskmodel.output.mark import is_diskmodel_output, marked_as_ours
from diskmodel.output.names import (
    CSV,
    HTML,
    JSON,
    NAME_MAX_BYTES,
    STDOUT,
    YAML,
    Format,
    Output,
    csv_paths,
    output_path,
)
from diskmodel.output.writing import write_output, write_outputs

__all__ = [
    "CSV",
    "HTML",
    "JSON",
    "NAME_MAX_BYTES",
    "STDOUT",
    "YAML",
    "Format",
    "Output",
    "check_output_path",
    "check_outputs",
    "csv_paths",
    "is_diskmodel_output",
    "marked_as_ours",
    "output_path",
    "write_output",
    "write_outputs",
]
