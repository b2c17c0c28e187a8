"""Reading and writing tidy tables (CSV always; Parquet when pyarrow is installed)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cipherlab.model._schema import coerce


def write_table(df: pd.DataFrame, path: str | Path) -> Path:
    """Write a tidy table to ``.csv`` or ``.parquet`` (chosen by the suffix); return the path."""
    path = Path(path)
    if path.suffix == ".parquet":
        df.to_parquet(path, index=False)
    elif path.suffix == ".csv":
        df.to_csv(path, index=False)
    else:
        raise ValueError(f"path must end in '.csv' or '.parquet'; not {path.name!r}")
    return path


def read_table(path: str | Path) -> pd.DataFrame:
    """Read a tidy table written by :func:`write_table` and restore the schema dtypes."""
    path = Path(path)
    if path.suffix == ".parquet":
        return coerce(pd.read_parquet(path))
    if path.suffix == ".csv":
        return coerce(pd.read_csv(path, low_memory=False))
    raise ValueError(f"path must end in '.csv' or '.parquet'; not {path.name!r}")
