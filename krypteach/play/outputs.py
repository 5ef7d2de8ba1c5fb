"""The files a run of many givar writes: one JSON Lines record per giv and CSV rows."""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any, Self

from ..engine.game import Giv
from ..engine.records import write_records
from ..i18n import _

__all__ = ["GivOutputs", "OutputError", "check_output_path"]


class OutputError(ValueError):
    """An output file that cannot be written; the message names the option and the path."""


def check_output_path(path: str | Path, option: str) -> Path:
    """Refuse, before any work starts, an output path that could not be written:
    a folder, a file in a folder that does not exist, or one not writable.

    >>> check_output_path("/", "--csv")
    Traceback (most recent call last):
    ...
    krypteach.play.outputs.OutputError: --csv /: is a folder; give a file name in it, e.g. /results.csv
    """
    p = Path(path)
    text = str(path)
    if not text.strip():
        raise OutputError(_("{option} {path}: give a file name").format(option=option, path=repr(text)))
    if p.is_dir():
        example = p / {"--csv": "results.csv", "--record": "givar.jsonl"}.get(option, "puzzles.json")
        raise OutputError(_("{option} {path}: is a folder; give a file name in it, e.g. {example}").format(
            option=option, path=text, example=example))
    parent = p.parent
    if not parent.is_dir():
        say = (_("{option} {path}: the folder {folder} is not a folder; create it first or write somewhere else")
               if parent.exists() else
               _("{option} {path}: the folder {folder} does not exist; create it first or write somewhere else"))
        raise OutputError(say.format(option=option, path=text, folder=parent))
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise OutputError(_("{option} {path}: not allowed to write there; choose a file in a folder you can "
                            "write to").format(option=option, path=text))
    return p


class GivOutputs:
    """The ``--record`` and ``--csv`` files of a run: per giv one record line and some CSV rows.

    The paths are checked when it is made (see :func:`check_output_path`), so a bad
    path fails before any giv is played. Used as a context manager: the files are
    written beside their targets under temporary names and take their real names
    only when the run ends without an error; a run that fails leaves no file behind
    (and an older file of that name as it was).
    """

    def __init__(self, record: str | None, csv_path: str | None, header: list[str]) -> None:
        self.record, self.csv_path = record, csv_path
        targets = [(check_output_path(record, "--record") if record else None),
                   (check_output_path(csv_path, "--csv") if csv_path else None)]
        if targets[0] and targets[1] and targets[0].resolve() == targets[1].resolve():
            raise OutputError(_("--record {record} and --csv {csv} name the same file: give two file names").format(
                record=record, csv=csv_path))
        self._files: list[tuple[Path, Path, IO[str]]] = []  # (target, temporary file, open file)
        self._rec: IO[str] | None = None
        self._csv: IO[str] | None = None
        try:
            if targets[0]:
                self._rec = self._open(targets[0], newline=None)
            if targets[1]:
                self._csv = self._open(targets[1], newline="")
        except OSError as e:
            self._discard()
            raise OutputError(_("cannot write {path}: {problem}").format(path=e.filename, problem=e.strerror)) from None
        self._writer: Any = csv.writer(self._csv) if self._csv else None
        if self._writer:
            self._writer.writerow(header)
        self.count = 0  # givar written so far: the number of the next giv

    def _open(self, target: Path, newline: str | None) -> IO[str]:
        part = target.with_name(f".{target.name}.{os.getpid()}.part")
        fh = open(part, "w", encoding="utf-8", newline=newline)  # closed in __exit__ or _discard
        self._files.append((target, part, fh))
        return fh

    def _discard(self) -> None:
        for _target, part, fh in self._files:
            fh.close()
            part.unlink(missing_ok=True)
        self._files = []

    def add(self, giv: Giv, rows: Iterable[Sequence[object]]) -> None:
        """Write the giv's record and its CSV rows (an iterable of lists)."""
        if self._rec:
            write_records([giv], self._rec)
        if self._writer:
            self._writer.writerows(rows)
        self.count += 1

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:
            self._discard()
            return
        try:
            for _target, _part, fh in self._files:
                fh.close()
            for target, part, _fh in self._files:
                os.replace(part, target)
        finally:
            for _target, part, _fh in self._files:
                part.unlink(missing_ok=True)
            self._files = []

    def report(self) -> None:
        """Say where the files went."""
        if self.record:
            print(_("records written to {path}").format(path=self.record))
        if self.csv_path:
            print(_("results written to {path}").format(path=self.csv_path))
