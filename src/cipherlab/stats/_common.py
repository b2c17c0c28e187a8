"""Argument checks and the small table helpers every analysis in :mod:`cipherlab.stats` shares.

Why this module exists: each public function takes a tidy table plus column names, refuses bad
input with a message that names the parameter, the allowed values and the bad value, and works
on log throughput of the clean cells only (flagged cells never silently enter a mean).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.errors import AnalysisError, CipherlabWarning

#: Default cell of a comparison: one algorithm, one operation, one block size.
CELL_KEYS = ("algorithm", "operation", "block_bytes")
#: Columns that say which run a row came from (kept on every finding of lint/comparable).
RUN_KEYS = ("source", "run", "label")
# Condition columns that never define a separate fit or comparison: repeats are pooled.
_POOLED = ("repeat",)


_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside cipherlab (the user's line).

    The public functions call each other (``speedup`` -> ``compare`` -> ``comparable``), so a
    fixed ``stacklevel`` would point inside the package for some entry points.
    """
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def check_one_of(param: str, value: Any, allowed: Sequence[Any]) -> Any:
    """Return ``value`` if it is one of ``allowed``, else raise a message naming all three."""
    if value not in allowed:
        shown = ", ".join(repr(a) for a in allowed)
        raise AnalysisError(f"`{param}` must be one of {shown}; not {value!r}.")
    return value


def check_alpha(alpha: float, param: str = "alpha") -> float:
    """Return ``alpha`` if it is a probability strictly between 0 and 0.5."""
    if not isinstance(alpha, (int, float)) or not 0 < float(alpha) < 0.5:
        raise AnalysisError(f"`{param}` must be a number between 0 and 0.5 (e.g. 0.05); not {alpha!r}.")
    return float(alpha)


def require_columns(df: pd.DataFrame, columns: Iterable[str], *, what: str) -> None:
    """Raise :class:`AnalysisError` naming the missing columns and the ones that exist."""
    if not isinstance(df, pd.DataFrame):
        raise AnalysisError(f"{what} needs a pandas DataFrame (a tidy table from cipherlab.ingest); "
                            f"not {type(df).__name__}.")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise AnalysisError(f"{what}: the table has no column(s) {missing}; its columns are "
                            f"{list(df.columns)}.")


def as_list(value: str | Sequence[str] | None, default: Sequence[str] = ()) -> list[str]:
    """``None`` -> the default, a string -> a one-item list, a sequence -> a list."""
    if value is None:
        return list(default)
    if isinstance(value, str):
        return [value]
    return list(value)


def condition_keys(df: pd.DataFrame, exclude: Iterable[str] = ()) -> list[str]:
    """Condition columns (those outside the fixed schema) that define separate settings."""
    from cipherlab.model import COLUMNS

    skip = set(exclude) | set(_POOLED)
    return [c for c in df.columns if c not in COLUMNS and c not in skip]


def clean_metric(df: pd.DataFrame, metric: str, *, what: str) -> pd.DataFrame:
    """Rows whose ``metric`` is a positive finite number and whose ``flag`` is empty.

    Cells flagged by the readers (negative, inf, absurd) and non-positive values cannot enter a
    log-scale analysis; they are dropped with one :class:`CipherlabWarning` saying how many.
    NaN cells (openssl's "not measured") and ``-multi`` children's shares (flag
    ``"child process"``: the run's total is the unflagged row, counting both would count twice)
    are dropped silently.
    """
    from cipherlab.model import FLAG_CHILD, FLAG_NOT_MEASURED

    require_columns(df, [metric], what=what)
    value = pd.to_numeric(df[metric], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    flagged = np.zeros(len(df), dtype=bool)
    child = np.zeros(len(df), dtype=bool)
    if "flag" in df.columns:
        f = df["flag"].astype("object")
        child = f.eq(FLAG_CHILD).to_numpy(dtype=bool)
        flagged = (f.notna() & ~f.isin([FLAG_NOT_MEASURED, FLAG_CHILD])).to_numpy(dtype=bool)
    with np.errstate(invalid="ignore"):
        bad_value = ~np.isnan(value) & ~(np.isfinite(value) & (value > 0))
    dropped = flagged | bad_value
    if dropped.any():
        warn(
            f"{what}: {int(dropped.sum())} flagged, non-positive or infinite `{metric}` cell(s) left "
            f"out of the analysis; run cipherlab.stats.lint(df) to see them.",
            CipherlabWarning)
    keep = ~dropped & ~child & ~np.isnan(value)
    return df.loc[keep]


def group_frame(df: pd.DataFrame, keys: list[str]):
    """``df.groupby(keys)`` that keeps NA keys and only the observed category combinations."""
    return df.groupby(keys, observed=True, dropna=False, sort=True)


def key_values(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The key columns of ``df`` as plain object/numeric columns (categoricals decoded)."""
    out = {}
    for k in keys:
        s = df[k]
        out[k] = s.astype("object") if isinstance(s.dtype, pd.CategoricalDtype) else s
    return pd.DataFrame(out, index=df.index)


def map_unique(s: pd.Series, fn) -> np.ndarray:
    """``fn`` applied once per distinct value of ``s`` (NA -> ``fn(None)``), spread over the rows.

    Labels, versions and names repeat on every row of a run: evaluating a regex per distinct
    value instead of per row keeps the checks fast on large tables.
    """
    if isinstance(s.dtype, pd.CategoricalDtype):
        codes, uniques = s.cat.codes.to_numpy(), list(s.cat.categories)
    else:
        codes, uniques = pd.factorize(s.astype("object"), use_na_sentinel=True)
    mapped = np.empty(len(uniques) + 1, dtype=object)
    mapped[:] = [fn(u) for u in uniques] + [fn(None)]
    return mapped[codes]  # code -1 (NA) picks fn(None)


def tidy_keys(result: pd.DataFrame, keys: list[str], source: pd.DataFrame) -> pd.DataFrame:
    """Give key columns of a result the dtypes they had in the input table."""
    for k in keys:
        if k in source.columns and k in result.columns:
            dtype = source[k].dtype
            try:
                if isinstance(dtype, pd.CategoricalDtype):
                    result[k] = pd.Categorical(result[k].astype("object"))
                else:
                    result[k] = result[k].astype(dtype)
            except (TypeError, ValueError):
                pass  # mixed keys (e.g. NA in an int64 column) stay as they are
    return result
