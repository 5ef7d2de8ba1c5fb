"""The files a run of many givar writes: one JSON Lines record per giv and CSV rows."""

from __future__ import annotations

import csv

from ..engine.records import write_records

__all__ = ["GivOutputs"]


class GivOutputs:
    """The ``--record`` and ``--csv`` files of a run: per giv one record line and some CSV rows.

    Used as a context manager so the files are closed however the run ends.
    """

    def __init__(self, record: str | None, csv_path: str | None, header: list[str]) -> None:
        self.record, self.csv_path = record, csv_path
        self._rec = open(record, "w", encoding="utf-8") if record else None
        self._csv = open(csv_path, "w", encoding="utf-8", newline="") if csv_path else None
        self._writer = csv.writer(self._csv) if self._csv else None
        if self._writer:
            self._writer.writerow(header)
        self.count = 0  # givar written so far: the number of the next giv

    def add(self, giv, rows) -> None:
        """Write the giv's record and its CSV rows (an iterable of lists)."""
        if self._rec:
            write_records([giv], self._rec)
        if self._writer:
            self._writer.writerows(rows)
        self.count += 1

    def __enter__(self) -> "GivOutputs":
        return self

    def __exit__(self, *exc) -> None:
        for f in (self._rec, self._csv):
            if f:
                f.close()

    def report(self) -> None:
        """Say where the files went."""
        if self.record:
            print(f"records written to {self.record}")
        if self.csv_path:
            print(f"results written to {self.csv_path}")
