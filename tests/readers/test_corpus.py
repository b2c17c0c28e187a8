"""Every dump under tests/data with an expected table beside it reads back to that table.

The expected tables were written by ``tests/data/regenerate_expected.py`` and checked by hand
against the dumps; ``test_spot.py`` names cells copied from the source text. Only columns that
do not depend on where the file was read from are compared (not ``source``); floats with a
relative tolerance of 1e-12, everything else exactly.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cipherlab
from cipherlab.errors import IngestWarning
from cipherlab.model import read_table

pytestmark = pytest.mark.usefixtures("engine")  # block readers and line by line (conftest)

DATA = Path(__file__).resolve().parents[1] / "data"
DUMPS = sorted(p for p in DATA.rglob("*") if p.suffix in {".txt", ".md", ".html"}
               and p.with_name(f"{p.stem}.expected.csv").exists())


def _ids(p: Path) -> str:
    return str(p.relative_to(DATA))


def assert_same_table(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    got = got.drop(columns=["source"]).reset_index(drop=True)
    expected = expected.drop(columns=["source"], errors="ignore").reset_index(drop=True)
    assert list(got.columns) == list(expected.columns)
    assert len(got) == len(expected)
    for col in got.columns:
        a, b = got[col], expected[col]
        if pd.api.types.is_float_dtype(a) or pd.api.types.is_float_dtype(b):
            x = a.to_numpy(dtype=float, na_value=np.nan)
            y = b.to_numpy(dtype=float, na_value=np.nan)
            bad = ~np.isclose(x, y, rtol=1e-12, atol=0, equal_nan=True)
        else:
            x = [None if pd.isna(v) else str(v) for v in a.astype("object")]
            y = [None if pd.isna(v) else str(v) for v in b.astype("object")]
            bad = np.array([p != q for p, q in zip(x, y)], dtype=bool)
        assert not bad.any(), (f"column {col!r} differs in {int(bad.sum())} row(s), first at row "
                               f"{int(np.argmax(bad))}: got {a.iloc[int(np.argmax(bad))]!r}, "
                               f"expected {b.iloc[int(np.argmax(bad))]!r}")


def test_corpus_is_not_empty():
    assert len(DUMPS) >= 30, [_ids(p) for p in DUMPS]


@pytest.mark.parametrize("dump", DUMPS, ids=_ids)
def test_dump_reads_to_expected_table(dump):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = cipherlab.ingest(dump)
    expected = read_table(dump.with_name(f"{dump.stem}.expected.csv"))
    assert_same_table(got, expected)
    # Nothing that looks like data is dropped, and nothing is warned about for clean dumps.
    unplaced = [w for w in caught if issubclass(w.category, IngestWarning) and "not placed" in str(w.message)]
    if "garbage" not in dump.name:
        assert not unplaced, str(unplaced[0].message)
