"""The lesson notebooks as kept in git: valid nbformat 4.5 with an id for every cell (nbformat
warns of a missing id, and will refuse it), and never an executed output."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import nbformat
import pytest

LESSONS = sorted((Path(__file__).resolve().parent.parent / "lessons").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_is_valid_with_an_id_for_each_cell_and_no_outputs(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nbformat's MissingIDFieldWarning among them
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    ids = [cell.get("id") for cell in nb.cells]
    assert None not in ids and len(set(ids)) == len(ids), ids
    raw = json.loads(path.read_text(encoding="utf-8"))
    executed = [i for i, cell in enumerate(raw["cells"])
                if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert executed == [], f"{path.name}: executed cells kept in git: {executed}"


def test_every_lesson_is_checked():
    assert len(LESSONS) == 12
