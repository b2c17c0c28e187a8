"""Argument checks and the small table helpers every analysis in :mod:`cipherlab.stats` shares.

Why this module exists: each public function takes a tidy table plus column names, refuses bad
input with a message that names the parameter, the allowed values and the bad value, and works
on log throughput of the clean cells only (flagged cells never silently enter a mean).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.errors import AnalysisError, CipherlabWarning, warn_caller

#: Default cell of a comparison: one algorithm, one operation, one block size.
CELL_KEYS = ("algorithm", "operation", "block_bytes")
#: Columns that say which run a row came from (kept on every finding of lint/comparable).
RUN_KEYS = ("source", "run", "label")
#: The columns that name one run (one process): the default unit of replication. A capture's
#: ``capture_id`` keeps runs of two capture folders apart when their sources read alike (folders
#: of one name from several machines: ``cap/runs/<key>.txt``, run 0 in each).
RUN_ID = ("capture_id", "source", "run")
#: Run facts that tell machines, builds and tools apart: a comparison keeps their values in
#: separate cells unless they are what is compared (measurement-notes §4a).
MACHINE_KEYS = ("host", "label", "cpu", "tool", "tool_version", "backend", "python", "tier",
                "timing", "multi", "options", "compiler")
# Condition columns that never define a separate cell or fit: repeats (aggregated to their run),
# footnote letters, -multi child numbers and start times.
_POOLED = ("repeat", "note", "child", "started")




def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside cipherlab (the user's line)."""
    warn_caller(message, category)


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
    from cipherlab.model import COLUMNS, PROVENANCE

    skip = set(exclude) | set(_POOLED) | set(PROVENANCE)  # how a cell was read: no condition
    return [c for c in df.columns if c not in COLUMNS and c not in skip]


def unit_columns(df: pd.DataFrame, unit, *, what: str) -> list[str] | None:
    """The columns whose values name one unit of replication; ``None``: every row is one unit.

    ``unit="run"`` (the default of every comparing function) is one process: the rows of one
    ``(source, run)`` of one ``capture_id``. A table without those columns cannot say where runs
    begin: every row is then taken as its own run, with a warning. ``unit="repeat"`` makes each
    row a unit (repeats inside one process share its state, so this understates the variance:
    only on request);
    a column name or list names the unit directly.
    """
    if unit == "run":
        cols = [c for c in RUN_ID if c in df.columns]
        if not {"source", "run"} & set(cols):
            warn(f"{what}: the table has no `source`/`run` columns, so it cannot tell which rows "
                 f"came from one run: every row is taken as its own run (unit). Pass unit=[...] "
                 f"naming the columns of a run.", CipherlabWarning)
            return None
        return cols
    if unit == "repeat":
        return None
    if isinstance(unit, (str, list, tuple)):
        cols = as_list(unit)
        require_columns(df, cols, what=f"{what} `unit`")
        return cols
    raise AnalysisError(f"`unit` must be 'run', 'repeat' or column name(s); not {unit!r}.")


def unit_ids(df: pd.DataFrame, cols: list[str] | None) -> np.ndarray:
    """One integer per row naming its unit (see :func:`unit_columns`)."""
    if cols is None:
        return np.arange(len(df))
    return df.groupby(cols, observed=True, dropna=False, sort=False).ngroup().to_numpy()


def unit_name(unit) -> str:
    """How a result names its unit: ``run``, ``repeat`` or the columns joined by commas."""
    return unit if isinstance(unit, str) else ", ".join(unit)


_BLANK = object()  # stands for NA when telling settings apart (never equal to a value)


def split_keys(rows: pd.DataFrame, by: str | None, base: Sequence[str]) -> tuple[list[str], list[str]]:
    """Default cell keys: ``base`` plus every run/machine column that varies within a side.

    A column that varies among the rows of one cell and level of ``by`` (two hosts measured
    with AES-NI on) would pool different machines into one cell: it becomes a key. A column
    constant within each cell and level but different between levels (NetBSD's compiler when
    comparing by label; a run label naming the AES-NI setting) is part of what is compared: it
    is returned second, for :func:`comparable` to name it as a difference besides ``by``.
    Without ``by`` (a fit per group) the same rule applies within the ``base`` groups.
    """
    # (a cell column compared by itself, ``by='algorithm'``, is the comparison, not a key)
    keys, nested = [k for k in base if k in rows.columns and k != by], []
    # conditions first: on a tie (aesni on/off and a label naming it) the condition is the key
    extra = [c for c in (*condition_keys(rows), *MACHINE_KEYS) if c in rows.columns]
    extra = [c for c in dict.fromkeys(extra) if c != by and c not in keys
             and not pd.api.types.is_float_dtype(rows[c].dtype)]  # floats: measurements
    # A condition stated on some runs of a side and not on others (`-provider fips` beside a
    # run given no provider) is two settings there, whatever the comparison: blank is a level.
    conditions = set(condition_keys(rows))
    # coarse columns first (tool before label): once `tool` splits the cells, a label naming
    # each tool's run no longer varies within a cell and is not a key; of two as coarse, one
    # that every row states first (a paste beside a capture: its version names it, its blank
    # host would not)
    # (and on a tie, the machine before the session on it: host_id names the row's machine,
    # capture_id only a capture of it)
    for c in sorted(extra, key=lambda c: (rows[c].nunique(dropna=by is not None),
                                          bool(rows[c].isna().any()), c == "capture_id")):
        # A fit per group (no `by`): a run that states no label, build or host beside one
        # that does may be another machine, so blank is one more value (one line through two
        # builds is no cost model). A comparison joins its sides on the keys, and a column
        # stated on one side only would leave no cell to compare: there blank is unknown.
        values = rows[c].astype("object")
        values = values.fillna(_BLANK) if by is None or c in conditions else values
        if values.nunique() <= 1:
            continue
        cols = [*keys, *([by] if by is not None else [])]  # a cell and side of the comparison
        side = (rows.groupby(cols, observed=True, dropna=False, sort=False).ngroup().to_numpy()
                if cols else np.zeros(len(rows), dtype=np.int8))
        if (values.groupby(side).nunique() > 1).any():
            keys.append(c)
        else:
            nested.append(c)
    # a key that the other keys determine (isa_off given isa) adds no split: leave it out,
    # unless one of those is blank somewhere (a paste beside a capture has no isa: its version
    # is what names its row)
    for c in [k for k in reversed(keys) if k not in base]:
        others = [k for k in keys if k != c]
        named = not rows[[k for k in others if k not in base]].isna().to_numpy().any()
        if others and named and (rows.groupby(others, observed=True, dropna=False)[c].nunique(
                dropna=by is not None and c not in conditions) <= 1).all():
            keys.remove(c)
    return keys, nested


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
