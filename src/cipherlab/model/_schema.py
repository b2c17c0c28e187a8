"""Columns, dtypes and the records -> DataFrame step (no parsing, no statistics here)."""

from __future__ import annotations


import warnings
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np
import pandas as pd

from cipherlab.errors import IngestWarning

# Per-cell fields, in table order. ``flag`` says why a cell is not a plain measurement
# (``"not measured"`` for openssl's 0.00 cells, ``"negative"``, ``"inf"``, ``"absurd"``), NA otherwise.
CELL_FIELDS = ("line", "algorithm", "name", "operation", "block_bytes", "bytes_per_s",
               "ops_per_s", "count", "seconds", "flag")

# Per-run fields: repeated on every row of the run. Anything else a run carries is a condition.
RUN_FIELDS = ("label", "tool", "tool_version", "timing", "dialect", "built_on", "options",
              "compiler", "cpuinfo", "multi", "cpu", "clock_hz")

#: Every fixed column and its dtype, in the order of the table. Condition columns (``aesni``,
#: ``isa``, ``tier``, ``repeat``, ...) follow ``flag``; run metadata closes the table.
COLUMNS: dict[str, str] = {
    "source": "category",
    "run": "int64",
    "label": "category",
    "line": "Int64",
    "tool": "category",
    "tool_version": "category",
    "timing": "category",
    "algorithm": "category",
    "name": "category",
    "operation": "category",
    "block_bytes": "Int64",
    "bytes_per_s": "float64",
    "ops_per_s": "float64",
    "count": "Int64",
    "seconds": "float64",
    "flag": "category",
    # run metadata
    "dialect": "category",
    "built_on": "category",
    "options": "category",
    "compiler": "category",
    "cpuinfo": "category",
    "multi": "Int64",
    "cpu": "category",
    "clock_hz": "float64",
}
_HEAD = list(COLUMNS)[: list(COLUMNS).index("flag") + 1]
_TAIL = list(COLUMNS)[len(_HEAD):]
# Conditions whose values are whole numbers stay numeric so they sort and compare as numbers.
_INTEGER_CONDITIONS = {"repeat", "write_bytes", "processes", "child"}

FLAG_NOT_MEASURED = "not measured"
#: Flag of a ``-multi`` child's share of a measurement; the run's total is the unflagged row.
FLAG_CHILD = "child process"
# One core of any CPU made so far stays far below 1 TB/s for a cipher or digest.
_ABSURD_BYTES_PER_S = 1e12


@dataclass
class Run:
    """One run inside a source: its metadata plus its measured cells.

    ``meta`` maps :data:`RUN_FIELDS` (and any condition such as ``aesni``) to values;
    ``cells`` is a list of mappings over :data:`CELL_FIELDS` (missing keys mean NA), or of
    sequences holding the :data:`CELL_FIELDS` values in order (the fast form parsers use).
    ``number`` fixes the ``run`` column; runs sharing a number are parts of one run that differ
    in a condition (``-multi`` children, repeats), and ``None`` numbers runs in order.
    """

    meta: dict[str, Any] = field(default_factory=dict)
    cells: list[Any] = field(default_factory=list)
    number: int | None = None


def condition_columns(df: pd.DataFrame) -> list[str]:
    """The condition columns of a tidy table (those that are not fixed columns), in order.

    >>> import pandas as pd
    >>> condition_columns(pd.DataFrame(columns=["source", "run", "aesni", "bytes_per_s"]))
    ['aesni']
    """
    return [c for c in df.columns if c not in COLUMNS]


def to_frame(runs: Iterable[Run], *, source: str, conditions: Mapping[str, Any] | None = None,
             first_run: int = 0, stacklevel: int = 4) -> pd.DataFrame:
    """Build the tidy table from parsed runs.

    ``conditions`` (the caller's keyword arguments to ``ingest``) apply to every row and win over
    conditions found in the text. A cell key outside :data:`CELL_FIELDS` is a condition that
    varies from row to row inside one run (a table's ``AES-NI Enabled`` column, a tier row); it
    wins over the run's ``meta`` but not over ``conditions``. Cells whose throughput is exactly
    zero are openssl's "not measured" marker: their rate becomes NaN and ``flag`` says so.
    Negative, infinite and absurdly large values are kept, flagged, and reported with one
    :class:`~cipherlab.errors.IngestWarning`.
    """
    conditions = dict(conditions or {})
    cols: dict[str, list] = {c: [] for c in _HEAD}
    extra: dict[str, list] = {}
    n = 0
    for i, run in enumerate(runs):
        meta = {**run.meta, **conditions}
        k = len(run.cells)
        if not k:
            continue
        cols["source"].extend([source] * k)
        cols["run"].extend([first_run + i if run.number is None else run.number] * k)
        for f in ("label", "tool", "tool_version", "timing"):
            cols[f].extend([meta.get(f)] * k)
        mappings = isinstance(run.cells[0], Mapping)
        if mappings:
            for f in CELL_FIELDS:
                cols[f].extend(c.get(f) for c in run.cells)
        else:
            for f, values in zip(CELL_FIELDS, zip(*run.cells)):
                cols[f].extend(values)
        for key, value in meta.items():
            if key in ("label", "tool", "tool_version", "timing"):
                continue
            col = extra.setdefault(key, [None] * n)
            col.extend([value] * k)
        if mappings:
            skip = {*CELL_FIELDS, *conditions, "label", "tool", "tool_version", "timing"}
            for key in dict.fromkeys(key for c in run.cells for key in c if key not in skip):
                col = extra.setdefault(key, [None] * n)
                del col[n:]  # the run-level value (if any) is replaced cell by cell
                col.extend(c.get(key, meta.get(key)) for c in run.cells)
        n += k
        for col in extra.values():
            if len(col) < n:
                col.extend([None] * (n - len(col)))
    data = {**cols, **extra}
    df = pd.DataFrame(data, columns=list(data)) if n else pd.DataFrame(columns=list(data))
    return _flag(coerce(df), source, stacklevel)


def _flag(df: pd.DataFrame, source: str, stacklevel: int = 4) -> pd.DataFrame:
    rate = df["bytes_per_s"].where(df["bytes_per_s"].notna(), df["ops_per_s"])
    flag = df["flag"].astype("object")
    zero = rate.eq(0) & flag.isna()
    flag[zero] = FLAG_NOT_MEASURED
    df.loc[zero, ["bytes_per_s", "ops_per_s"]] = np.nan
    bad = {
        "negative": rate.lt(0),
        "inf": np.isinf(rate.to_numpy(dtype=float, na_value=np.nan)),
        "absurd": rate.gt(_ABSURD_BYTES_PER_S) & ~np.isinf(rate.to_numpy(dtype=float, na_value=np.nan)),
    }
    suspicious = pd.Series(False, index=df.index)
    for name, mask in bad.items():
        mask = pd.Series(mask, index=df.index) & flag.isna()
        flag[mask] = name
        suspicious |= mask
    df["flag"] = pd.Categorical(flag)
    if suspicious.any():
        lines = df.loc[suspicious, "line"].dropna().astype(int).tolist()
        shown = ", ".join(map(str, lines[:5])) + (" ..." if len(lines) > 5 else "")
        warnings.warn(
            f"{source}: {int(suspicious.sum())} suspicious value(s) kept and flagged in the 'flag' "
            f"column (negative, infinite or beyond 1 TB/s) at line(s) {shown}; check the source "
            f"text and filter with df[df.flag.isna()] before averaging.",
            IngestWarning, stacklevel=stacklevel)
    return df


def coerce(df: pd.DataFrame) -> pd.DataFrame:
    """Return ``df`` with every fixed column present and of its schema dtype, in table order.

    Used after reading a CSV (which forgets dtypes) and after concatenating tables (which turns
    categoricals with different categories into objects). Missing fixed columns are added as NA.

    >>> import pandas as pd
    >>> df = coerce(pd.DataFrame({"algorithm": ["aes-128-cbc"], "block_bytes": [16],
    ...                           "bytes_per_s": [1e9], "aesni": ["on"]}))
    >>> df["block_bytes"].dtype.name, df["algorithm"].dtype.name, df["aesni"].dtype.name
    ('Int64', 'category', 'category')
    """
    df = df.copy()
    for col, dtype in COLUMNS.items():
        if col not in df.columns:
            df[col] = pd.Series(pd.NA if dtype != "int64" else 0, index=df.index)
        df[col] = _as(df[col], dtype)
    conds = condition_columns(df)
    for col in conds:
        df[col] = _as(df[col], "Int64" if col in _INTEGER_CONDITIONS else "category")
    return df[_HEAD + conds + _TAIL].reset_index(drop=True)


def _as(s: pd.Series, dtype: str) -> pd.Series:
    if dtype == "category":
        if isinstance(s.dtype, pd.CategoricalDtype):
            return s
        s = s.astype("object").where(s.notna(), None)
        return s.map(lambda v: v if v is None else str(v)).astype("category")
    if dtype in ("Int64", "int64"):
        s = pd.to_numeric(s, errors="coerce")
        return s.round().astype("Int64") if dtype == "Int64" else s.fillna(0).astype("int64")
    return pd.to_numeric(s, errors="coerce").astype(dtype)


def concat(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate tidy tables, keeping categoricals and the column order.

    Runs keep their own numbers inside each source; ``(source, run)`` identifies a run.
    """
    frames = [f for f in frames if f is not None]
    if not frames:
        return coerce(pd.DataFrame())
    objs = [f.astype({c: "object" for c in f.columns if isinstance(f[c].dtype, pd.CategoricalDtype)})
            for f in frames]
    return coerce(pd.concat(objs, ignore_index=True, sort=False))


